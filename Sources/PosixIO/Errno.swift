#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `errno` values other modules name, so that they need not import the C library.
public enum Errno {
    /// `ENOENT`: no such file or directory.
    public static let noSuchFile = ENOENT
    /// `ENOTDIR`: a path component is not a directory.
    public static let notADirectory = ENOTDIR
    /// `EISDIR`: the path is a directory.
    public static let isADirectory = EISDIR
    /// `EEXIST`: the file exists.
    public static let fileExists = EEXIST
    /// `EACCES`: permission denied.
    public static let accessDenied = EACCES
    /// `EPERM`: operation not permitted.
    public static let notPermitted = EPERM
    /// `ENOSPC`: no space left on the device.
    public static let noSpace = ENOSPC
    /// `EINVAL`: invalid argument.
    public static let invalidArgument = EINVAL
    /// `EIO`: input/output error.
    public static let ioError = EIO
    /// `EMFILE`: this process has too many open files.
    public static let tooManyOpenFiles = EMFILE
    /// `ENFILE`: the system has too many open files.
    public static let tooManyOpenFilesInSystem = ENFILE

    /// The calling thread's `errno` now, for a failure reported by a library that does not say
    /// why (such as FoundationEssentials' FileManager).
    public static var current: Int32 { currentErrno() }

    /// The system's description of `code`, e.g. "No space left on device".
    public static func description(of code: Int32) -> String { String(cString: strerror(code)) }
}
