#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats
import PosixIO

/// Streaming SHA-256 of files, for the content-addressed archive.
public enum FileDigest {
    /// Bytes read per step; large enough to amortise system calls, small enough to stay cache-friendly.
    static let chunkSize = 1 << 20

    /// Hashes the file at `path`, calling `progress` with the bytes done so far. With `copyTo`,
    /// the bytes are also written to that new file in the same pass, so archiving reads the input once.
    public static func sha256(path: String, copyTo: String? = nil, progress: ((UInt64) -> Void)? = nil) throws(FileSystemError) -> HashDigest {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var output: Int32 = -1
        if let copyTo {
            output = open(copyTo, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard output >= 0 else { throw FileSystemError(operation: "create", path: copyTo, errno: errno) }
        }
        defer { if output >= 0 { close(output) } }
        #if canImport(Glibc)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var total: UInt64 = 0
        while true {
            let count: Int
            do { count = try FileDescriptor(rawValue: fd, path: path).read(into: buffer) } catch { throw FileSystemError(error) }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]))
            if output >= 0, let copyTo { try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]), path: copyTo) }
            total += UInt64(count)
            progress?(total)
        }
        if output >= 0, let copyTo, fsync(output) != 0 { throw FileSystemError(operation: "sync", path: copyTo, errno: errno) }
        return hasher.finalize()
    }

    /// Writes every byte, retrying short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        do { try FileDescriptor(rawValue: fd, path: path).writeAll(bytes) } catch { throw FileSystemError(error) }
    }
}
