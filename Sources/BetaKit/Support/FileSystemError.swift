#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PosixIO

/// A failed system call on a file, with the path and the OS's reason.
public struct FileSystemError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// What was being attempted, such as "open" or "rename".
    public var operation: String
    /// The file concerned.
    public var path: String
    /// The `errno` value reported by the system.
    public var errno: Int32
    /// What the path turned out to be when a regular file was needed ("a directory", "a character
    /// device", …); nil for other failures.
    public var foundKind: String?

    /// Creates an error for a failed `operation` on `path`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The same failure as PosixIO reported it, worded as betactl words file errors.
    public init(_ error: SystemCallError, operation: String? = nil) {
        self.init(operation: operation ?? error.operation, path: error.path ?? "", errno: error.errno)
    }

    /// An error for `path`, which PosixIO found to be `kind`, not a regular file.
    public static func notARegularFile(operation: String, path: String, kind: FileMetadata.Kind) -> FileSystemError {
        var error = FileSystemError(operation: operation, path: path, errno: kind == .directory ? EISDIR : EINVAL)
        error.foundKind = kind == .unknown ? "not a file" : kind.description
        return error
    }

    /// An error for `path`, which is not a regular file; `mode` is its `st_mode` from `stat`.
    public static func notARegularFile(operation: String, path: String, mode: mode_t) -> FileSystemError {
        let kind: String
        switch mode & S_IFMT {
        case S_IFDIR: kind = "a directory"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a pipe"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        var error = FileSystemError(operation: operation, path: path, errno: mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL)
        error.foundKind = kind
        return error
    }

    /// A path that is not a file where one was needed is bad input; anything else failed.
    public var category: ErrorCategory { foundKind == nil ? .failed : .invalidInput }

    /// A sentence naming the path, the operation and the OS's reason.
    public var description: String {
        if let foundKind { return "cannot \(operation) \(path): it is \(foundKind), not a regular file; give the path of a file" }
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
