#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Whole-file replacement that a reader never sees half done.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically: into a temporary file beside it (mode 0600, so secrets
    /// are never readable by others, even for a moment), fsync'd, then renamed over `path`. A
    /// reader sees the old file or the whole new one; on failure the temporary file is removed.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let temporary = path + ".betactl-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: temporary, errno: errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { systemWrite(fd, $0 + offset, buffer.count - offset) } ?? 0 }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                close(fd); unlink(temporary)
                throw FileSystemError(operation: "write", path: temporary, errno: code)
            }
            offset += n
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(operation: "write", path: temporary, errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(operation: "rename", path: path, errno: code)
        }
    }
}
