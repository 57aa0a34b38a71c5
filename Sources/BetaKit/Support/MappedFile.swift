import PosixIO

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
    // The mapping is immutable, and freed with the object.
    private let mapping: MemoryMapping

    /// Maps `path` read-only. An empty file maps to an empty buffer.
    public init(path: String) throws(FileSystemError) {
        self.path = path
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch { throw FileSystemError(error, operation: "open") }
        defer { try? fd.close() }
        let info: FileMetadata
        do { info = try fd.status() } catch { throw FileSystemError(error, operation: "stat") }
        guard info.kind == .regularFile else {
            throw FileSystemError.notARegularFile(operation: "map", path: path, kind: info.kind)
        }
        count = Int(info.size)
        status = FileStatus(info)
        do { mapping = try MemoryMapping.readOnly(fd, count: count) } catch { throw FileSystemError(error, operation: "map") }
    }

    deinit {
        mapping.unmap()
    }

    /// The mapped bytes; valid for as long as this object is alive.
    public var bytes: UnsafeRawBufferPointer {
        mapping.bytes
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

    init(_ info: FileMetadata) {
        size = UInt64(max(0, info.size))
        modifiedSeconds = info.modified
        modifiedNanoseconds = info.modifiedNanoseconds
        inode = info.inode
        device = info.device
    }
}
