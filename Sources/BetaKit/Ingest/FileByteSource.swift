#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

/// A zip source that reads a file with `pread`, so an ipa of any size is
/// streamed with a fixed buffer instead of being loaded or mapped whole.
public final class FileByteSource: ZipByteSource, Sendable {
    /// The file's path.
    public let path: String
    /// The file's size when opened.
    public let size: UInt64
    private let descriptor: Int32

    /// Opens `path` for reading.
    public init(path: String) throws(FileSystemError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw FileSystemError(operation: "stat", path: path, errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileSystemError.notARegularFile(operation: "read", path: path, mode: info.st_mode)
        }
        descriptor = fd
        size = UInt64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Fills `buffer` from `offset`, retrying short reads.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return }
            let result = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "read", path: path, errno: errno)
            }
            guard result > 0 else {
                throw ZipError.readFailed("\(path) ended at byte \(offset + UInt64(done)); it changed or was truncated while being read")
            }
            done += result
        }
    }
}
