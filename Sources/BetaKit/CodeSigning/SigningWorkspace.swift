import AppleFormats
import PosixIO

/// The files of a bundle being re-signed: read as the verifier reads them, written back by path.
/// `BundleSigner` works on one, so the same signing code serves an app folder on disk and an
/// .ipa whose unchanged entries are never extracted (`ZipSigningWorkspace`).
protocol SigningWorkspace: AnyObject, CodeSignatureFileAccess {
    /// Replaces the entry at `path` (a file or a link) with a regular file holding `bytes`, or
    /// creates it.
    func write(_ bytes: [UInt8], to path: String) throws
    /// The SHA-1 and SHA-256 of the regular file at `path`, hashed chunk by chunk.
    func digests(of path: String) throws -> (sha1: [UInt8], sha256: [UInt8])
}

extension SigningWorkspace {
    /// The SHA-1 and SHA-256 of the regular file at `path`, hashed chunk by chunk.
    func digests(of path: String) throws -> (sha1: [UInt8], sha256: [UInt8]) {
        try streamedDigests(of: path)
    }

    func streamedDigests(of path: String) throws -> (sha1: [UInt8], sha256: [UInt8]) {
        var sha1 = SHA1(), sha256 = SHA256()
        try withChunks(of: path) { chunk in
            sha1.update(chunk)
            sha256.update(chunk)
        }
        return (sha1.finalize().bytes, sha256.finalize().bytes)
    }
}

/// A bundle folder on disk, signed in place. Paths start with the folder's own name
/// (`Beta.app/Info.plist`); links are replaced, never written through.
final class DirectorySigningWorkspace: SigningWorkspace {
    /// The folder holding the bundle (with a trailing slash, or empty).
    let parent: String
    /// The bundle's own path key (its folder name).
    let root: String
    private(set) var entries: [String: CodeSignatureFileEntry]

    init(path: String) throws {
        let files = try DirectorySignatureFiles(path: path)
        parent = files.parent
        root = String(path.withoutTrailingSlashes.split(separator: "/").last ?? "")
        entries = files.entries
    }

    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard case .file = entries[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: Errno.noSuchFile) }
        return try MappedFile(path: parent + path).withBytes { try body($0) }
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        let full = parent + path
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            if let info = (try? FileSystem.linkStatus(parent + folder)) ?? nil {
                guard info.kind == .directory else { throw FileSystemError(operation: "create", path: parent + folder, errno: Errno.notADirectory) }
            } else {
                let created = try withFileSystemError("create") { () throws(SystemCallError) in
                    try FileSystem.makeDirectory(parent + folder, permissions: 0o755)
                }
                guard created else { throw FileSystemError(operation: "create", path: parent + folder, errno: Errno.fileExists) }
            }
        }
        // A link (or an old file, whose permissions are kept) is removed first: writing through a
        // link could reach outside the bundle.
        let existing = (try? FileSystem.linkStatus(full)) ?? nil
        let mode = existing.flatMap { $0.kind == .regularFile ? $0.permissions & 0o777 : nil } ?? 0o644
        try withFileSystemError("replace") { () throws(SystemCallError) in _ = try FileSystem.removeFile(full) }
        let fd = try withFileSystemError("create") { () throws(SystemCallError) in
            try FileDescriptor.open(full, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: mode)
        }
        defer { try? fd.close() }
        try bytes.withUnsafeBytes { try FileDigest.writeAll(fd, $0, path: full) }
        entries[path] = .file(size: UInt64(bytes.count))
    }
}
