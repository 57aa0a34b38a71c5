import AppleFormats
import Dispatch
import Synchronization

/// Reads an .ipa, .xcarchive (directory or zip) or .dSYM (directory or zip) into an `IngestedArtifact`.
///
/// Zip inputs are streamed: every entry is CRC-checked, executables and DWARF
/// files are extracted to `workDirectory` one at a time, and the whole file is
/// hashed on a second thread meanwhile. Memory stays bounded by a few buffers.
public struct ArtifactIngestor: Sendable {
    /// Where zip entries that must be mapped (executables, DWARF files) are extracted.
    public var workDirectory: String
    /// Zip-bomb caps.
    public var limits: ZipLimits
    /// Called as long steps advance.
    public var progress: IngestProgressHandler?
    /// When set, a zip input is copied to this new file while it is hashed (one read for both).
    public var copyInputTo: String?
    /// The input's SHA-256 when the caller already computed it (an upload hashed as it arrived):
    /// the file is then not read a second time to hash it. Ignored when `copyInputTo` is set.
    public var knownSHA256: HashDigest?
    /// Whether the app's code signature is verified as iOS does (see `IngestedApp.signature`).
    public var verifiesCodeSignatures = true
    /// SHA-256s of the zip input's resource files that the caller computed from the same bytes
    /// while writing it, with their CRCs checked (`resign`): the seal check uses them instead of
    /// reading those files again.
    var knownResourceSHA256: [String: [UInt8]] = [:]

    /// Plists and profiles are small; anything larger is refused rather than read into memory.
    static let maxSmallFile = 16 << 20
    /// Icons larger than this are not converted.
    static let maxIconFile = 8 << 20

    /// Creates an ingestor extracting into `workDirectory` (which must exist).
    public init(workDirectory: String, limits: ZipLimits = ZipLimits(), progress: IngestProgressHandler? = nil) {
        self.workDirectory = workDirectory
        self.limits = limits
        self.progress = progress
    }

    /// Reads everything betactl needs from `path`.
    public func ingest(path: String) throws(IngestError) -> IngestedArtifact {
        switch FileKind(path: path) {
        case .missing:
            throw IngestError.missing(path)
        case .directory:
            do {
                let source = try DirectoryBundleSource(root: path)
                return try ingest(source: source, path: path, sha256: nil, size: source.files.values.reduce(0, +), isZip: false)
            } catch let error as IngestError {
                throw error
            } catch {
                throw Self.wrap(error, path: path)
            }
        case .regularFile, .other:
            return try ingestFile(path)
        }
    }

    private func ingestFile(_ path: String) throws(IngestError) -> IngestedArtifact {
        let file: FileByteSource
        do { file = try FileByteSource(path: path) } catch { throw IngestError.fileSystem(error) }
        let known = copyInputTo == nil ? knownSHA256 : nil
        let hashing = known == nil ? BackgroundHash(path: path, copyTo: copyInputTo, progress: progress, total: file.size) : nil
        do {
            let archive = try ZipArchive(source: file, limits: limits)
            let source = ZipBundleSource(archive: archive, workDirectory: workDirectory)
            var artifact = try ingest(source: source, path: path, sha256: nil, size: file.size, isZip: true)
            artifact.sha256 = try known ?? hashing?.wait()
            return artifact
        } catch {
            _ = try? hashing?.wait()
            if let error = error as? IngestError { throw error }
            throw Self.wrap(error, path: path)
        }
    }

    static func wrap(_ error: any Error, path: String) -> IngestError {
        switch error {
        case let error as IngestError: return error
        case let error as ZipError: return .archive(path: path, error)
        case let error as FileSystemError: return .fileSystem(error)
        default: return .unrecognized(path: path, reason: "\(error)")
        }
    }

    private func ingest(source: any BundleSource, path: String, sha256: HashDigest?, size: UInt64, isZip: Bool) throws -> IngestedArtifact {
        let layout = try InputLayout.detect(source, path: path, isZip: isZip)
        var app: IngestedApp?
        if let appRoot = layout.appRoot {
            app = try AppWalker(source: source, inputPath: path).readApp(at: appRoot)
            if verifiesCodeSignatures { app?.signature = try signatureReport(source: source, root: appRoot) }
        }
        var locations: [String: String] = [:]
        var dwarfFiles: [IngestedDWARFFile] = []
        for dwarfPath in layout.dwarfPaths {
            let (file, extractedPath) = try source.materialize(dwarfPath)
            locations[dwarfPath] = extractedPath ?? file.path
            let slices = file.withBytes { MachOSlices.read($0).slices }
            dwarfFiles.append(IngestedDWARFFile(bundlePath: Self.dsymBundle(of: dwarfPath), path: dwarfPath,
                                                slices: slices, size: UInt64(file.count)))
        }
        try source.verifyRemaining(progress: progress)
        return IngestedArtifact(kind: layout.kind, path: path, sha256: sha256, size: size, app: app,
                                dwarfFiles: dwarfFiles, dwarfLocations: locations)
    }

    /// Verifies the code signature of the app at `root` through the same zip or directory.
    private func signatureReport(source: any BundleSource, root: String) throws -> BundleSignatureReport? {
        if let zip = source as? ZipBundleSource {
            // What the check reads whole is CRC-checked, so the final pass over the zip skips it.
            var files = ZipSignatureFiles(archive: zip.archive, workDirectory: workDirectory)
            files.onRead = { path in zip.markVerified(path) }
            files.knownSHA256 = knownResourceSHA256
            for path in knownResourceSHA256.keys { zip.markVerified(path) }
            return CodeSignatureChecker.verify(root: root, files: files.prehashed(under: root))
        }
        if let directory = source as? DirectoryBundleSource {
            return CodeSignatureChecker.verify(root: root, files: try DirectorySignatureFiles(path: directory.root))
        }
        return nil
    }

    static func dsymBundle(of path: String) -> String {
        guard let range = path.firstRange(of: ".dSYM/") else { return path }
        return String(path[..<range.lowerBound]) + ".dSYM"
    }
}

/// Hashes a file on a background thread while the caller parses it.
final class BackgroundHash: Sendable {
    private let result = Mutex<Result<HashDigest, FileSystemError>?>(nil)
    private let group = DispatchGroup()

    init(path: String, copyTo: String?, progress: IngestProgressHandler?, total: UInt64) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let outcome: Result<HashDigest, FileSystemError>
            do throws(FileSystemError) {
                outcome = .success(try FileDigest.sha256(path: path, copyTo: copyTo) { done in progress?("hashing", done, total) })
            } catch {
                outcome = .failure(error)
            }
            self.result.withLock { $0 = outcome }
            self.group.leave()
        }
    }

    func wait() throws(FileSystemError) -> HashDigest {
        group.wait()
        guard let outcome = result.withLock({ $0 }) else { throw FileSystemError(operation: "hash", path: "", errno: 5) }
        return try outcome.get()
    }
}
