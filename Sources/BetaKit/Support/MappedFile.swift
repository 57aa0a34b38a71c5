#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file.
///
/// Parsers take `UnsafeRawBufferPointer`s; mapping lets a 500 MB dSYM or ipa be
/// parsed without reading it into memory, and lets the kernel share pages
/// between processes that look at the same archived blob.
public final class MappedFile: Sendable {
    /// The path the mapping was made from.
    public let path: String
    /// The number of bytes mapped.
    public let count: Int
    /// What `fstat(2)` said about the file opened for the mapping, so a caller can record which
    /// file, in which state, the bytes came from without a second look that may see another file.
    public let status: FileStatus
    // Stored as an address so the class stays Sendable; the mapping is immutable.
    private let address: UInt

    /// Maps `path` read-only. An empty file maps to an empty buffer.
    public init(path: String) throws(FileSystemError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(operation: "stat", path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileSystemError.notARegularFile(operation: "map", path: path, mode: info.st_mode)
        }
        count = Int(info.st_size)
        status = FileStatus(info)
        if count == 0 {
            address = 0
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw FileSystemError(operation: "map", path: path, errno: errno)
        }
        address = UInt(bitPattern: mapped)
    }

    deinit {
        if address != 0, let pointer = UnsafeMutableRawPointer(bitPattern: address) {
            munmap(pointer, count)
        }
    }

    /// The mapped bytes; valid for as long as this object is alive.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
    }

    /// Calls `body` with the mapped bytes, keeping the mapping alive for the call.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in try body(bytes) }
    }
}

/// Which file, in which state: the parts of `stat(2)` that change when the file is replaced or
/// rewritten.
public struct FileStatus: Sendable, Hashable {
    /// The size in bytes.
    public var size: UInt64
    /// The modification time: seconds since 1970.
    public var modifiedSeconds: Int64
    /// The modification time: nanoseconds within the second.
    public var modifiedNanoseconds: Int64
    /// The inode number.
    public var inode: UInt64
    /// The device holding the file.
    public var device: UInt64

    init(_ info: stat) {
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        size = UInt64(info.st_size)
        modifiedSeconds = Int64(modified.tv_sec)
        modifiedNanoseconds = Int64(modified.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }
}
