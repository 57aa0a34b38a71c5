#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, from `stat(2)`.
public enum FileKind: Equatable, Sendable {
    /// Nothing (or nothing this process may see).
    case missing
    /// A directory.
    case directory
    /// A regular file.
    case regularFile
    /// Anything else: a device, a pipe, a socket.
    case other

    /// Looks at `path`, following symbolic links.
    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { self = .missing; return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG: self = .regularFile
        default: self = .other
        }
    }
}
