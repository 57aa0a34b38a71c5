import PosixIO

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
        guard let status = (try? FileSystem.status(path)) ?? nil else { self = .missing; return }
        switch status.kind {
        case .directory: self = .directory
        case .regularFile: self = .regularFile
        default: self = .other
        }
    }
}
