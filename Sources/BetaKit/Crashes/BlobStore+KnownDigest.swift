import AppleFormats
import PosixIO

extension BlobStore {
    /// Writes bytes whose SHA-256 the caller already computed as a blob (written, fsync'd, then
    /// renamed into place): crash intake hashes each report once to find duplicates, and hashing
    /// 100 KB again per upload is a tenth of the server's work at load.
    func store(_ bytes: [UInt8], digest: HashDigest, staging: String) throws(FileSystemError) {
        if contains(digest) { return }
        let staged = "\(staging)/blob-\(digest.hex)"
        let fd = try withFileSystemError("create") { () throws(SystemCallError) in
            try FileDescriptor.open(staged, .writeOnly, options: [.create, .truncate], permissions: 0o600)
        }
        do {
            defer { try? fd.close() }
            let written: Result<Void, FileSystemError> = bytes.withUnsafeBytes { raw in
                Result { () throws(FileSystemError) in try FileDigest.writeAll(fd, raw, path: staged) }
            }
            try written.get()
            try withFileSystemError("sync") { () throws(SystemCallError) in try fd.sync() }
        }
        try adopt(staged: staged, digest: digest)
    }
}
