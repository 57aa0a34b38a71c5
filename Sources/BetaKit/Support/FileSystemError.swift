#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call on a file, with the path and the OS's reason.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// What was being attempted, such as "open" or "rename".
    public var operation: String
    /// The file concerned.
    public var path: String
    /// The `errno` value reported by the system.
    public var errno: Int32

    /// Creates an error for a failed `operation` on `path`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// A sentence naming the path, the operation and the OS's reason.
    public var description: String {
        let reason = String(cString: strerror(errno))
        let hint: String
        switch errno {
        case ENOENT: hint = "; check the path"
        case EACCES, EPERM: hint = "; check its permissions"
        case ENOSPC: hint = "; free some disk space and retry"
        case EISDIR: hint = "; expected a regular file"
        default: hint = ""
        }
        return "cannot \(operation) \(path): \(reason)\(hint)"
    }
}
