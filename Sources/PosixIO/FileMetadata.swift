#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says of a file: its kind, size, permissions and modification time.
public struct FileMetadata: Sendable, Equatable {
    /// The kinds of file a path can name.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        /// A regular file.
        case regularFile
        /// A directory.
        case directory
        /// A symbolic link (reported by `lstat` only).
        case symbolicLink
        /// A character device, such as /dev/null.
        case characterDevice
        /// A block device.
        case blockDevice
        /// A named pipe (FIFO).
        case pipe
        /// A Unix-domain socket.
        case socket
        /// Anything else.
        case unknown

        /// "a directory", "a pipe", … for messages.
        public var description: String {
            switch self {
            case .regularFile: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .pipe: "a pipe"
            case .socket: "a socket"
            case .unknown: "an unknown kind of file"
            }
        }
    }

    /// The kind.
    public var kind: Kind
    /// The size in bytes.
    public var size: Int64
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: mode_t
    /// The modification time in seconds since 1970.
    public var modified: Int64
    /// The whole `st_mode`: the file type bits and the permission bits.
    public var mode: FileMode
    /// The nanoseconds within the second of the modification time.
    public var modifiedNanoseconds: Int64
    /// The inode number.
    public var inode: UInt64
    /// The device holding the file.
    public var device: UInt64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .pipe
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        size = Int64(info.st_size)
        permissions = info.st_mode & 0o7777
        mode = info.st_mode
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        modified = Int64(time.tv_sec)
        modifiedNanoseconds = Int64(time.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }
}

/// Permission bits as the system's calls take them (`mode_t`), for modules that do not import
/// the C library.
public typealias FileMode = mode_t
