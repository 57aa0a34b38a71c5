import AppleFormats

/// Verifies the code signatures of an .ipa, an .app, an .xcarchive (directory or zip) or a lone
/// Mach-O as iOS does on install, and checks that each signed bundle's signing certificate is one
/// of its embedded profile's `DeveloperCertificates`.
public struct CodeSignatureChecker: Sendable {
    /// Where large zip entries are extracted while they are checked (must exist).
    public var workDirectory: String

    /// A checker extracting into `workDirectory`.
    public init(workDirectory: String) {
        self.workDirectory = workDirectory
    }

    /// Verifies `path`. Throws only when the input cannot be read at all; every signature
    /// problem is in the returned report.
    public func check(path: String) throws(IngestError) -> BundleSignatureReport {
        do {
            if FileKind(path: path) == .regularFile, try Self.isMachO(path) {
                let files = try DirectorySignatureFiles(path: path)
                guard let name = files.entries.keys.first else { throw IngestError.missing(path) }
                return BundleSignatureVerifier(cms: LibcryptoCodeSignatureCMS()).verifyMachO(at: name, in: files)
            }
            switch FileKind(path: path) {
            case .missing: throw IngestError.missing(path)
            case .directory: return try check(files: DirectorySignatureFiles(path: path), path: path)
            default:
                let archive = try ZipArchive(source: try FileByteSource(path: path))
                let files = ZipSignatureFiles(archive: archive, workDirectory: workDirectory)
                return try check(files: Self.appRoot(in: files.entries.keys).map { files.prehashed(under: $0) } ?? files, path: path)
            }
        } catch {
            throw ArtifactIngestor.wrap(error, path: path)
        }
    }

    /// Verifies the app in `files` (paths as the input holds them).
    func check(files: some CodeSignatureFileAccess, path: String) throws -> BundleSignatureReport {
        guard let root = Self.appRoot(in: files.entries.keys) else {
            throw IngestError.noAppBundle(path: path, detail: "no .app bundle was found (looked for Payload/<Name>.app, Products/Applications/<Name>.app or an .app folder)")
        }
        return Self.verify(root: root, files: files)
    }

    /// Verifies the bundle at `root` and the profile membership of each signer.
    static func verify(root: String, files: some CodeSignatureFileAccess) -> BundleSignatureReport {
        var report = BundleSignatureVerifier(cms: LibcryptoCodeSignatureCMS()).verifyBundle(at: root, in: files)
        report.problems += profileProblems(report, files: files)
        return report
    }

    /// A signer that is not among the DeveloperCertificates of the profile beside its executable.
    static func profileProblems(_ report: BundleSignatureReport, files: some CodeSignatureFileAccess) -> [CodeSignatureProblem] {
        var problems: [CodeSignatureProblem] = []
        for executable in report.executables {
            guard let slash = executable.path.lastIndex(of: "/") else { continue }
            let profilePath = String(executable.path[..<slash]) + "/embedded.mobileprovision"
            guard let bytes = files.bytes(of: profilePath), let profile = try? ProvisioningProfile(bytes: bytes) else { continue }
            let allowed = Set(profile.developerCertificates.map(\.sha256Fingerprint))
            for signer in Set(executable.slices.compactMap { $0.signer }) where !allowed.contains(signer.sha256Fingerprint) {
                problems.append(CodeSignatureProblem(path: executable.path, cause: .signerNotInProfile(
                    signer: "\"\(signer.subject)\" (SHA-1 \(signer.sha1Fingerprint.hex.uppercased()))", profile: "\"\(profile.name)\"")))
            }
        }
        return problems
    }

    /// The app bundle of an input: `Payload/X.app`, `…/Products/Applications/X.app`, or the input itself.
    static func appRoot(in paths: Dictionary<String, CodeSignatureFileEntry>.Keys) -> String? {
        var best: String?
        for path in paths where path.hasSuffix("/Info.plist") {
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".app") else { continue }
            let bundle = parts.dropLast().joined(separator: "/")
            let parent = parts.count >= 3 ? parts[parts.count - 3] : ""
            let isTopLevel = parts.count == 2 || parent == "Payload" || parent == "Applications"
            guard isTopLevel, !bundle.contains(".app/") else { continue }
            if best == nil || bundle.count < best?.count ?? 0 { best = bundle }
        }
        return best
    }

    static func isMachO(_ path: String) throws -> Bool {
        let file = try MappedFile(path: path)
        return file.withBytes { MachOFile.looksLikeMachO($0) }
    }
}
