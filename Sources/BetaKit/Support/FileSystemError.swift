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
        var error = FileSystemError(operation: operation, path: path, errno: kind == .directory ? Errno.isADirectory : Errno.invalidArgument)
        error.foundKind = kind == .unknown ? "not a file" : kind.description
        return error
    }

    /// A path that is not a file where one was needed is bad input; anything else failed.
    public var category: ErrorCategory { foundKind == nil ? .failed : .invalidInput }

    /// A sentence naming the path, the operation and the OS's reason.
    public var description: String {
        if let foundKind { return "cannot \(operation) \(path): it is \(foundKind), not a regular file; give the path of a file" }
        let reason = Errno.description(of: errno)
        let hint: String
        switch errno {
        case Errno.noSuchFile: hint = "; check the path"
        case Errno.accessDenied, Errno.notPermitted: hint = "; check its permissions"
        case Errno.noSpace: hint = "; free some disk space and retry"
        case Errno.isADirectory: hint = "; expected a regular file"
        default: hint = ""
        }
        return "cannot \(operation) \(path): \(reason)\(hint)"
    }
}

/// Runs PosixIO calls, reporting a failure as a `FileSystemError` (with `operation` in place of
/// PosixIO's wording when given).
func withFileSystemError<T>(_ operation: String? = nil, _ body: () throws(SystemCallError) -> T) throws(FileSystemError) -> T {
    do { return try body() } catch { throw FileSystemError(error, operation: operation) }
}
