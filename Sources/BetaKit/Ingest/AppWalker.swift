import AppleFormats
import PosixIO

/// Walks an app bundle: Info.plist, profile, the main executable, nested bundles and the icon.
struct AppWalker {
    let source: any BundleSource
    let inputPath: String

    func readApp(at root: String) throws -> IngestedApp {
        guard source.files["\(root)/Info.plist"] != nil else {
            throw IngestError.noAppBundle(path: inputPath, detail: "\(root) has no Info.plist")
        }
        let info: BundleInfo
        do {
            info = try BundleInfo(bytes: try source.contents(of: "\(root)/Info.plist", maxSize: ArtifactIngestor.maxSmallFile))
        } catch let error as PlistError {
            throw IngestError.unrecognized(path: inputPath, reason: "\(root)/Info.plist: \(error)")
        }
        var problems: [IngestProblem] = []
        let profile = readProfile(root, problems: &problems, required: true)
        var executables: [IngestedExecutable] = []
        if let main = try readExecutable(bundle: root, info: info, kind: .app, profile: profile, problems: &problems) {
            executables.append(main)
        }
        var nested: [NestedBundle] = []
        try readNested(in: root, into: &executables, bundles: &nested, problems: &problems)
        var warnings: [IngestProblem] = []
        let icon = readIcon(root, info: info, warnings: &warnings)
        if icon == nil && warnings.isEmpty {
            warnings.append(IngestProblem(path: root, message: "no app icon was found (looked for \(info.iconNames.isEmpty ? "CFBundleIcons entries" : info.iconNames.joined(separator: ", ")) PNGs); the install page will show a placeholder"))
        }
        return IngestedApp(bundlePath: root, info: info, profile: profile, executables: executables, nestedBundles: nested, iconPNG: icon,
                           problems: problems, warnings: warnings)
    }


    private func readNested(in root: String, into executables: inout [IngestedExecutable], bundles: inout [NestedBundle],
                            problems: inout [IngestProblem]) throws {
        let nested: [(String, String, ExecutableKind)] = [
            ("PlugIns", ".appex", .appExtension), ("Extensions", ".appex", .appExtension),
            ("Watch", ".app", .watchApp), ("AppClips", ".app", .appClip), ("Frameworks", ".framework", .framework),
        ]
        for (folder, suffix, kind) in nested {
            for name in source.subdirectories(of: "\(root)/\(folder)", suffix: suffix) {
                let bundle = "\(root)/\(folder)/\(name)"
                let info = readInfo(bundle, problems: &problems, required: kind != .framework)
                let profile = kind == .framework ? nil : readProfile(bundle, problems: &problems, required: true)
                bundles.append(NestedBundle(kind: kind, bundlePath: bundle, bundleIdentifier: info?.bundleIdentifier, profile: profile))
                let fallbackName = String(name.dropLast(suffix.count))
                if let executable = try readExecutable(bundle: bundle, info: info, kind: kind, profile: profile,
                                                       fallbackName: fallbackName, problems: &problems) {
                    executables.append(executable)
                }
                // Watch apps carry their own extensions.
                if kind == .watchApp || kind == .appClip {
                    try readNested(in: bundle, into: &executables, bundles: &bundles, problems: &problems)
                }
            }
        }
    }

    private func readInfo(_ bundle: String, problems: inout [IngestProblem], required: Bool) -> BundleInfo? {
        readSmallFile("Info.plist", in: bundle, problems: &problems, required: required,
                      missing: "has no Info.plist, so iOS cannot install it; rebuild and export the app again",
                      failurePrefix: "cannot be read: ", parse: BundleInfo.init(bytes:))
    }

    private func readProfile(_ bundle: String, problems: inout [IngestProblem], required: Bool) -> ProvisioningProfile? {
        let known = problems.count
        let profile = readSmallFile("embedded.mobileprovision", in: bundle, problems: &problems, required: required,
                                    missing: "has no embedded.mobileprovision; export the build with the Ad Hoc method so Xcode embeds the profile",
                                    failurePrefix: "", parse: ProvisioningProfile.init(bytes:))
        for index in known ..< problems.count { problems[index].isAboutTheProfile = true }
        return profile
    }

    /// Reads and parses `bundle/name`. A missing file is a problem only when `required`; a file
    /// that does not parse is always one, and the walk goes on so every problem is reported at once.
    private func readSmallFile<T>(_ name: String, in bundle: String, problems: inout [IngestProblem], required: Bool,
                                  missing: String, failurePrefix: String, parse: ([UInt8]) throws -> T) -> T? {
        let path = "\(bundle)/\(name)"
        guard source.files[path] != nil else {
            if required { problems.append(IngestProblem(path: bundle, message: missing)) }
            return nil
        }
        do {
            return try parse(try source.contents(of: path, maxSize: ArtifactIngestor.maxSmallFile))
        } catch {
            problems.append(IngestProblem(path: path, message: failurePrefix + "\(error)"))
            return nil
        }
    }

    private func readExecutable(bundle: String, info: BundleInfo?, kind: ExecutableKind, profile: ProvisioningProfile?,
                                fallbackName: String? = nil, problems: inout [IngestProblem]) throws -> IngestedExecutable? {
        guard let name = info?.executableName ?? fallbackName else {
            if info != nil {
                problems.append(IngestProblem(path: bundle, message: "its Info.plist has no CFBundleExecutable; rebuild the app"))
            }
            return nil
        }
        let path = "\(bundle)/\(name)"
        guard let size = source.files[path] else {
            problems.append(IngestProblem(path: bundle, message: "the executable \"\(name)\" named by CFBundleExecutable is missing; rebuild and export the app again"))
            return nil
        }
        let (file, extracted) = try source.materialize(path)
        defer { if let extracted { _ = try? FileSystem.removeFile(extracted) } }
        let (slices, sliceProblems) = file.withBytes { MachOSlices.read($0) }
        for problem in sliceProblems { problems.append(IngestProblem(path: path, message: problem)) }
        return IngestedExecutable(kind: kind, bundlePath: bundle, path: path, bundleIdentifier: info?.bundleIdentifier,
                                  slices: slices, profile: profile, size: size)
    }

    /// Picks the largest PNG in the bundle root whose name starts with one of the icon names.
    private func readIcon(_ root: String, info: BundleInfo, warnings: inout [IngestProblem]) -> [UInt8]? {
        let prefix = root + "/"
        var best: (path: String, size: UInt64)?
        for (path, size) in source.files where path.hasPrefix(prefix) && path.hasSuffix(".png") {
            let name = path.dropFirst(prefix.count)
            guard !name.contains("/"), info.iconNames.contains(where: { name.hasPrefix($0) }) else { continue }
            if best == nil || size > best?.size ?? 0 || (size == best?.size && path < best?.path ?? "") { best = (path, size) }
        }
        guard let best else { return nil }
        do {
            let bytes = try source.contents(of: best.path, maxSize: ArtifactIngestor.maxIconFile)
            return try PNGImage.browserCompatiblePNG(bytes)
        } catch {
            warnings.append(IngestProblem(path: best.path, message: "the icon cannot be shown on the install page: \(error)"))
            return nil
        }
    }
}
