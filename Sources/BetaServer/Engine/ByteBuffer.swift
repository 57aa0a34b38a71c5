#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer with separate read and write positions, owned by one connection.
///
/// Unlike `[UInt8]` it can hand out uninitialised capacity to `read(2)` and
/// frees its memory while a keep-alive connection is idle, which keeps
/// thousands of idle connections cheap.
final class ByteBuffer {
    private(set) var storage: UnsafeMutableRawPointer?
    private(set) var capacity = 0
    private(set) var readerIndex = 0
    private(set) var writerIndex = 0

    var readable: Int { writerIndex - readerIndex }

    deinit { free(storage) }

    /// Makes room for at least `count` more bytes after the written ones and returns that
    /// writable tail, to be filled and then committed.
    func reserve(_ count: Int) -> (start: UnsafeMutableRawPointer, count: Int) {
        if let storage, capacity - writerIndex >= count { return (storage + writerIndex, capacity - writerIndex) }
        if readerIndex > 0, let storage {
            if readable > 0 { memmove(storage, storage + readerIndex, readable) }
            writerIndex -= readerIndex
            readerIndex = 0
            if capacity - writerIndex >= count { return (storage + writerIndex, capacity - writerIndex) }
        }
        var newCapacity = max(capacity, 4096)
        while newCapacity - writerIndex < count { newCapacity *= 2 }
        guard let grown = realloc(storage, newCapacity) else { fatalError("out of memory growing a connection buffer") }
        storage = grown
        capacity = newCapacity
        return (grown + writerIndex, capacity - writerIndex)
    }

    func commit(_ count: Int) { writerIndex += count }

    func consume(_ count: Int) {
        readerIndex += count
        if readerIndex == writerIndex {
            readerIndex = 0
            writerIndex = 0
        }
    }

    func withReadable<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        guard let storage else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: storage + readerIndex, count: readable))
    }

    func clear() {
        readerIndex = 0
        writerIndex = 0
    }

    /// Frees the memory when nothing is buffered.
    func releaseIfEmpty() {
        guard readable == 0, storage != nil else { return }
        free(storage)
        storage = nil
        capacity = 0
        readerIndex = 0
        writerIndex = 0
    }
}

/// A value confined to one event loop, passed through Sendable closures that hop back to that loop.
///
/// The engine only dereferences `value` on the owning loop's thread.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
}

/// Monotonic time in nanoseconds.
enum Monotonic {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
