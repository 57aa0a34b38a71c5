#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

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
        guard case .file = entries[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: ENOENT) }
        return try MappedFile(path: parent + path).withBytes { try body($0) }
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        let full = parent + path
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            var info = stat()
            if lstat(parent + folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw FileSystemError(operation: "create", path: parent + folder, errno: ENOTDIR) }
            } else if mkdir(parent + folder, 0o755) != 0 {
                throw FileSystemError(operation: "create", path: parent + folder, errno: errno)
            }
        }
        // A link (or an old file, whose permissions are kept) is removed first: writing through a
        // link could reach outside the bundle.
        var existing = stat()
        let mode: mode_t = lstat(full, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG ? existing.st_mode & 0o777 : 0o644
        if unlink(full) != 0 && errno != ENOENT { throw FileSystemError(operation: "replace", path: full, errno: errno) }
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: full, errno: errno) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { try FileDigest.writeAll(fd, $0, path: full) }
        entries[path] = .file(size: UInt64(bytes.count))
    }
}
