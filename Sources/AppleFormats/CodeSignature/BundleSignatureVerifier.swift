/// Verifies a bundle's code signature as iOS does on install: each executable's own signature
/// (through `MachOSignatureVerifier`), the `_CodeSignature/CodeResources` seal over every other
/// file, and nested code (frameworks, dylibs, app extensions, watch apps) innermost first.
public struct BundleSignatureVerifier {
    /// The per-Mach-O verifier (and its CMS checker).
    public var machO: MachOSignatureVerifier

    /// Folders whose bundles are nested code, with the extension of those bundles.
    static let nestedFolders: [(folder: String, suffixes: [String])] = [
        ("Frameworks", [".framework"]), ("SharedFrameworks", [".framework"]), ("PlugIns", [".appex"]),
        ("Extensions", [".appex"]), ("Watch", [".app"]), ("AppClips", [".app"]), ("XPCServices", [".xpc"]),
    ]

    /// A verifier checking CMS signatures with `cms` (nil: structure and hashes only).
    public init(cms: (any CodeSignatureCMSVerifying)?) {
        machO = MachOSignatureVerifier(cms: cms)
    }

    /// Verifies the bundle whose root directory is `root` (such as `Payload/App.app`).
    public func verifyBundle(at root: String, in files: some CodeSignatureFileAccess) -> BundleSignatureReport {
        var report = BundleSignatureReport()
        _ = verifyBundle(root, files: files, report: &report)
        return report
    }

    /// Verifies the lone Mach-O at `path` (its Info.plist and resources are not checked).
    public func verifyMachO(at path: String, in files: some CodeSignatureFileAccess) -> BundleSignatureReport {
        var report = BundleSignatureReport()
        _ = verifyExecutable(path, files: files, sealed: .init(), report: &report)
        return report
    }

    /// Verifies one Mach-O and returns its CDHashes.
    func verifyExecutable(_ path: String, files: some CodeSignatureFileAccess, sealed: MachOSignatureVerifier.SealedFiles,
                          report: inout BundleSignatureReport) -> [[UInt8]] {
        let result: MachOSignatureVerifier.Result
        do {
            result = try files.withContents(of: path) { machO.verify($0, path: path, sealed: sealed) }
        } catch {
            report.problems.append(CodeSignatureProblem(path: path, cause: .malformed("it cannot be read: \(error)")))
            return []
        }
        report.executables.append(.init(path: path, slices: result.slices, cdHashes: result.cdHashes))
        report.problems += result.problems
        return result.cdHashes
    }

    /// Verifies the bundle at `root`, nested code first, and returns its executable's CDHashes.
    func verifyBundle(_ root: String, files: some CodeSignatureFileAccess, report: inout BundleSignatureReport) -> [[UInt8]] {
        let prefix = root + "/"
        // Nested code first: its CDHashes are what this bundle's seal names.
        var nested: [String: [[UInt8]]] = [:]
        for bundle in nestedBundles(in: root, files: files) {
            nested[String(bundle.dropFirst(prefix.count))] = verifyBundle(bundle, files: files, report: &report)
        }
        for dylib in nestedDylibs(in: root, files: files) {
            nested[String(dylib.dropFirst(prefix.count))] = verifyExecutable(dylib, files: files, sealed: .init(), report: &report)
        }
        let infoPath = prefix + "Info.plist"
        let info = files.bytes(of: infoPath)
        guard let info, let executableName = (try? BundleInfo(bytes: info))?.executableName else {
            report.problems.append(CodeSignatureProblem(path: infoPath, cause: info == nil ? .resourceMissing
                : .malformed("its Info.plist names no CFBundleExecutable")))
            return []
        }
        let resourcesPath = prefix + "_CodeSignature/CodeResources"
        let resources = files.bytes(of: resourcesPath)
        let executable = prefix + executableName
        let cdHashes: [[UInt8]]
        if files.entries[executable] == nil {
            report.problems.append(CodeSignatureProblem(path: executable, cause: .executableMissing))
            cdHashes = []
        } else {
            cdHashes = verifyExecutable(executable, files: files,
                                        sealed: .init(infoPlist: (infoPath, info), codeResources: (resourcesPath, resources)),
                                        report: &report)
        }
        guard let resources else {
            report.problems.append(CodeSignatureProblem(path: root, cause: .resourcesNotSealed))
            return cdHashes
        }
        ResourceSealVerifier(root: root, executableName: executableName, nested: nested, files: files)
            .verify(resources, resourcesPath: resourcesPath, into: &report.problems)
        return cdHashes
    }

    /// The nested bundles directly in the nested-code folders of `root`.
    public func nestedBundles(in root: String, files: some CodeSignatureFileAccess) -> [String] {
        var found = Set<String>()
        for (folder, suffixes) in Self.nestedFolders {
            let prefix = "\(root)/\(folder)/"
            for path in files.entries.keys where path.hasPrefix(prefix) {
                let rest = path.dropFirst(prefix.count)
                guard let slash = rest.firstIndex(of: "/") else { continue }
                let name = rest[..<slash]
                if suffixes.contains(where: { name.hasSuffix($0) }) { found.insert(prefix + name) }
            }
        }
        return found.sorted()
    }

    /// The dylibs directly in `root/Frameworks` (Swift runtime libraries and the like).
    public func nestedDylibs(in root: String, files: some CodeSignatureFileAccess) -> [String] {
        let prefix = "\(root)/Frameworks/"
        return files.entries.compactMap { path, entry in
            guard case .file = entry, path.hasPrefix(prefix), path.hasSuffix(".dylib"),
                  !path.dropFirst(prefix.count).contains("/") else { return nil }
            return path
        }.sorted()
    }
}
