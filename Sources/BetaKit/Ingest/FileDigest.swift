import AppleFormats
import PosixIO

/// Streaming SHA-256 of files, for the content-addressed archive.
public enum FileDigest {
    /// Bytes read per step; large enough to amortise system calls, small enough to stay cache-friendly.
    static let chunkSize = 1 << 20

    /// Hashes the file at `path`, calling `progress` with the bytes done so far. With `copyTo`,
    /// the bytes are also written to that new file in the same pass, so archiving reads the input once.
    public static func sha256(path: String, copyTo: String? = nil, progress: ((UInt64) -> Void)? = nil) throws(FileSystemError) -> HashDigest {
        let fd = try withFileSystemError("open") { () throws(SystemCallError) in try FileDescriptor.open(path, .readOnly) }
        defer { try? fd.close() }
        var output: FileDescriptor?
        if let copyTo {
            output = try withFileSystemError("create") { () throws(SystemCallError) in
                try FileDescriptor.open(copyTo, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
            }
        }
        defer { try? output?.close() }
        fd.adviseSequentialRead()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var total: UInt64 = 0
        while true {
            let count: Int
            do { count = try fd.read(into: buffer) } catch { throw FileSystemError(error) }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]))
            if let output, let copyTo { try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]), path: copyTo) }
            total += UInt64(count)
            progress?(total)
        }
        if let output { try withFileSystemError("sync") { () throws(SystemCallError) in try output.sync() } }
        return hasher.finalize()
    }

    /// Writes every byte, retrying short writes and EINTR.
    static func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        do { try FileDescriptor(rawValue: fd.rawValue, path: path).writeAll(bytes) } catch { throw FileSystemError(error) }
    }
}
