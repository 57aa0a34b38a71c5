#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

/// Streaming SHA-256 of files, for the content-addressed archive.
public enum FileDigest {
    /// Bytes read per step; large enough to amortise system calls, small enough to stay cache-friendly.
    static let chunkSize = 1 << 20

    /// Hashes the file at `path`, calling `progress` with the bytes done so far.
    public static func sha256(path: String, progress: ((UInt64) -> Void)? = nil) throws(FileSystemError) -> HashDigest {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        #if canImport(Glibc)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var total: UInt64 = 0
        while true {
            guard let base = buffer.baseAddress else { break }
            let count = read(fd, base, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "read", path: path, errno: errno)
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]))
            total += UInt64(count)
            progress?(total)
        }
        return hasher.finalize()
    }
}
