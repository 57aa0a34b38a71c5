#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, private memory mapping of the start of a file (`mmap`). It is not freed on its own:
/// call `unmap()` when done.
public struct MemoryMapping: Sendable {
    /// The first mapped byte's address (0 for an empty mapping); an address rather than a pointer
    /// so that the mapping is Sendable.
    public let address: UInt
    /// The number of bytes mapped.
    public let count: Int

    /// Maps the first `count` bytes of `file` read-only. A `count` of 0 maps nothing.
    public static func readOnly(_ file: FileDescriptor, count: Int) throws(SystemCallError) -> MemoryMapping {
        guard count > 0 else { return MemoryMapping(address: 0, count: 0) }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.rawValue, 0)
        guard let mapped, mapped != MAP_FAILED else { throw .current("map", file.path) }
        return MemoryMapping(address: UInt(bitPattern: mapped), count: count)
    }

    /// The mapped bytes; valid until `unmap()`.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
    }

    /// The size of a memory page (`sysconf(_SC_PAGESIZE)`); 0 if the system does not say.
    public static let pageSize = max(0, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Tells the kernel the whole pages in `start ..< start + count` of a read-only mapping are no
    /// longer needed (`madvise(MADV_DONTNEED)`): it may drop them, and reads them again from the
    /// file if they are touched. Only a hint, so a failure is ignored.
    public static func dropPages(at start: UnsafeMutableRawPointer, count: Int) {
        _ = madvise(start, count, Int32(MADV_DONTNEED))
    }

    /// Releases the mapping.
    public func unmap() {
        if address != 0, let pointer = UnsafeMutableRawPointer(bitPattern: address) { munmap(pointer, count) }
    }
}
