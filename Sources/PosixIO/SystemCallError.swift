#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: what was attempted, on which file (if any), and the `errno` it
/// reported, described with the system's own words (`strerror`).
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was attempted, such as "open", "write" or "rename".
    public var operation: String
    /// The file concerned, when there is one.
    public var path: String?
    /// The `errno` value.
    public var errno: Int32

    /// An error for `operation` on `path` that failed with `errno`.
    public init(operation: String, path: String? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The system's description of `errno`, e.g. "No space left on device".
    public var reason: String { String(cString: strerror(errno)) }

    /// "cannot write /tmp/x: No space left on device (errno 28)".
    public var description: String {
        "cannot \(operation)\(path.map { " \($0)" } ?? ""): \(reason) (errno \(errno))"
    }

    /// True for the errors that mean "no such file" (ENOENT, ENOTDIR).
    public var isNotFound: Bool { errno == ENOENT || errno == ENOTDIR }

    /// True when the file was already there (EEXIST).
    public var alreadyExists: Bool { errno == EEXIST }

    /// The current thread's `errno` as an error for `operation` on `path`.
    static func current(_ operation: String, _ path: String?) -> SystemCallError {
        SystemCallError(operation: operation, path: path, errno: currentErrno())
    }
}

/// The calling thread's `errno` (a function, because `errno` is a macro on some platforms).
@inline(__always) func currentErrno() -> Int32 {
    #if canImport(Glibc)
    return Glibc.errno
    #else
    return Darwin.errno
    #endif
}
