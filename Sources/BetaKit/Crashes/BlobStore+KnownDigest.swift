#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

extension BlobStore {
    /// Writes bytes whose SHA-256 the caller already computed as a blob (written, fsync'd, then
    /// renamed into place): crash intake hashes each report once to find duplicates, and hashing
    /// 100 KB again per upload is a tenth of the server's work at load.
    func store(_ bytes: [UInt8], digest: HashDigest, staging: String) throws(FileSystemError) {
        if contains(digest) { return }
        let staged = "\(staging)/blob-\(digest.hex)"
        let fd = open(staged, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: staged, errno: errno) }
        do {
            defer { close(fd) }
            let written: Result<Void, FileSystemError> = bytes.withUnsafeBytes { raw in
                Result { () throws(FileSystemError) in try FileDigest.writeAll(fd, raw, path: staged) }
            }
            try written.get()
            guard fsync(fd) == 0 else { throw FileSystemError(operation: "sync", path: staged, errno: errno) }
        }
        try adopt(staged: staged, digest: digest)
    }
}
