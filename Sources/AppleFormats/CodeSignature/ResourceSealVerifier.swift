/// Checks a bundle's `_CodeSignature/CodeResources` against the files actually there: every
/// sealed file present with its hash, every sealed link with its target, every nested code with
/// its CDHash, and no file added that the rules would have sealed.
struct ResourceSealVerifier<Files: CodeSignatureFileAccess> {
    /// The bundle's root (`Payload/App.app`).
    let root: String
    /// The main executable's name, sealed by its own signature rather than by CodeResources.
    let executableName: String
    /// The CDHashes of the nested code already verified, by path relative to `root`.
    let nested: [String: [[UInt8]]]
    let files: Files

    func verify(_ resources: [UInt8], resourcesPath: String, into problems: inout [CodeSignatureProblem]) {
        guard let plist = try? PlistValue(parsing: resources), let dictionary = plist.dictionary else {
            problems.append(CodeSignatureProblem(path: resourcesPath, cause: .malformed("it is not a property list dictionary")))
            return
        }
        let useV2 = dictionary["files2"]?.dictionary != nil
        let sealed = (useV2 ? dictionary["files2"] : dictionary["files"])?.dictionary ?? [:]
        let rules = ResourceRules((useV2 ? dictionary["rules2"] : dictionary["rules"])?.dictionary ?? [:])
        let prefix = root + "/"
        for key in sealed.keys.sorted() {
            guard let value = sealed[key] else { continue }
            check(key: key, value: value, path: prefix + key, into: &problems)
        }
        // Added files: anything the rules would seal that the seal does not list.
        let nestedRoots = nested.keys.map { $0 + "/" }
        // Links leading out of the bundle, which codesign refuses to seal (nested code checks its own).
        for (path, entry) in files.entries.sorted(by: { $0.key < $1.key }) where path.hasPrefix(prefix) {
            guard case let .symbolicLink(target) = entry else { continue }
            let relative = String(path.dropFirst(prefix.count))
            if nestedRoots.contains(where: { relative.hasPrefix($0) }) { continue }
            if !CodeSignatureFileEntry.linkStaysInside(link: relative, target: target) {
                problems.append(CodeSignatureProblem(path: path, cause: .symbolicLinkOutsideBundle(target: target)))
            }
        }
        for path in files.entries.keys.sorted() where path.hasPrefix(prefix) {
            let relative = String(path.dropFirst(prefix.count))
            if relative == executableName || relative.hasPrefix("_CodeSignature/") || sealed[relative] != nil { continue }
            if let nestedRoot = nestedRoots.first(where: { relative.hasPrefix($0) }) {
                // A nested bundle's files are sealed by its own signature; the bundle itself must be listed.
                let bundle = String(nestedRoot.dropLast())
                if sealed[bundle] == nil, rules.rule(for: bundle)?.omit != true, relative.hasSuffix("/Info.plist"),
                   relative.dropFirst(nestedRoot.count) == "Info.plist" {
                    problems.append(CodeSignatureProblem(path: prefix + bundle, cause: .resourceAdded))
                }
                continue
            }
            guard let rule = rules.rule(for: relative), !rule.omit else { continue }
            problems.append(CodeSignatureProblem(path: path, cause: .resourceAdded))
        }
    }

    private func check(key: String, value: PlistValue, path: String, into problems: inout [CodeSignatureProblem]) {
        let settings = value.dictionary ?? [:]
        let optional = settings["optional"]?.bool ?? false
        if let target = settings["symlink"]?.string {
            if case .symbolicLink(target) = files.entries[path] { return }
            if files.entries[path] == nil && optional { return }
            problems.append(CodeSignatureProblem(path: path, cause: .symbolicLinkChanged(expected: target)))
            return
        }
        if let cdHash = settings["cdhash"]?.data {
            guard let actual = nested[key] else {
                if files.entries[path] == nil && !optional {
                    problems.append(CodeSignatureProblem(path: path, cause: .resourceMissing))
                } else if files.entries[path] != nil || files.entries[path + "/Info.plist"] != nil {
                    problems.append(CodeSignatureProblem(path: path, cause: .nestedCodeChanged))
                }
                return
            }
            if !actual.contains(where: { $0.elementsEqual(cdHash.prefix(20)) }) {
                problems.append(CodeSignatureProblem(path: path, cause: .nestedCodeChanged))
            }
            return
        }
        guard case .file = files.entries[path] else {
            if files.entries[path] == nil {
                if !optional { problems.append(CodeSignatureProblem(path: path, cause: .resourceMissing)) }
            } else {
                problems.append(CodeSignatureProblem(path: path, cause: .resourceChanged))
            }
            return
        }
        let sha256 = settings["hash2"]?.data
        let sha1 = value.data ?? settings["hash"]?.data
        guard sha256 != nil || sha1 != nil else {
            problems.append(CodeSignatureProblem(path: path, cause: .malformed("its seal in CodeResources has no hash")))
            return
        }
        var matches = false
        if let sha256, let known = files.knownSHA256(of: path) {
            matches = known == sha256
        } else if let sha256 {
            var hasher = SHA256()
            if (try? files.withChunks(of: path) { hasher.update($0) }) != nil { matches = hasher.finalize().bytes == sha256 }
        } else if let sha1 {
            var hasher = SHA1()
            if (try? files.withChunks(of: path) { hasher.update($0) }) != nil { matches = hasher.finalize().bytes == sha1 }
        }
        if !matches { problems.append(CodeSignatureProblem(path: path, cause: .resourceChanged)) }
    }
}
