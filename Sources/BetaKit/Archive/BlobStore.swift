import AppleFormats
import PosixIO

/// Files named by their SHA-256 under `blobs/ab/abcdef…`.
///
/// Files enter only by `rename(2)` from the same file system, so a reader never
/// sees a half-written blob, and identical content is stored once.
struct BlobStore: Sendable {
    let root: String

    func path(for digest: HashDigest) -> String {
        let hex = digest.hex
        return "\(root)/\(hex.prefix(2))/\(hex)"
    }

    func contains(_ digest: HashDigest) -> Bool {
        FileKind(path: path(for: digest)) == .regularFile
    }

    /// Moves `staged` (already complete and synced) into place; when the blob exists the staged file is removed.
    func adopt(staged: String, digest: HashDigest) throws(FileSystemError) {
        let target = path(for: digest)
        let directory = String(target.dropLast(digest.hex.count + 1))
        do { _ = try FileSystem.makeDirectory(directory, permissions: 0o700) } catch {
            if !error.alreadyExists { throw FileSystemError(error, operation: "create directory") }
        }
        if contains(digest) {
            _ = try? FileSystem.removeFile(staged)
            return
        }
        do { try FileSystem.rename(staged, to: target) } catch {
            throw FileSystemError(operation: "rename", path: staged, errno: error.errno)
        }
        if let fd = try? FileDescriptor.open(directory, .readOnly) {
            try? fd.sync()
            try? fd.close()
        }
    }

    /// Writes bytes as a blob via a staged file in `staging`.
    func store(_ bytes: [UInt8], staging: String) throws(FileSystemError) -> HashDigest {
        let digest = SHA256.hash(bytes)
        try store(bytes, digest: digest, staging: staging)
        return digest
    }

    /// Copies a file into a staged file while hashing it, then adopts it.
    func store(file: String, staging: String) throws(FileSystemError) -> HashDigest {
        let staged = "\(staging)/copy-\(UInt64.random(in: 0 ... UInt64.max))"
        let digest = try FileDigest.sha256(path: file, copyTo: staged)
        try adopt(staged: staged, digest: digest)
        return digest
    }

    func remove(_ digest: HashDigest) {
        _ = try? FileSystem.removeFile(path(for: digest))
    }
}
