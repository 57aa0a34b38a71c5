#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only scratch file with a write buffer, used while building an index so that
/// memory stays flat however large the dSYM is. Removed when closed.
final class SpillFile {
    let path: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private(set) var count = 0
    static let bufferSize = 1 << 20

    init(path: String) throws {
        self.path = path
        fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: path, errno: errno) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        if fd >= 0 { close(fd) }
        unlink(path)
    }

    /// Appends the little-endian bytes of `value`.
    @inline(__always)
    func append<T: FixedWidthInteger>(_ value: T) throws {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
        count += MemoryLayout<T>.size
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends raw bytes.
    func append(bytes: UnsafeRawBufferPointer) throws {
        count += bytes.count
        if bytes.count >= Self.bufferSize {
            try flush()
            try Self.writeAll(fd, bytes, path: path)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends integers already converted to little-endian (`.littleEndian`), in one copy.
    func append<T: FixedWidthInteger>(littleEndian values: [T]) throws {
        try values.withUnsafeBytes { try append(bytes: $0) }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        let copy = buffer
        try copy.withUnsafeBytes { (raw) in try Self.writeAll(fd, raw, path: path) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Copies the whole file to the end of `destination`.
    func copy(to destination: Int32, destinationPath: String) throws {
        try flush()
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw FileSystemError(operation: "seek", path: path, errno: errno) }
        var chunk = [UInt8](repeating: 0, count: Self.bufferSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "read", path: path, errno: errno)
            }
            if n == 0 { break }
            try chunk.withUnsafeBytes { (raw) in
                try Self.writeAll(destination, UnsafeRawBufferPointer(rebasing: raw[0 ..< n]), path: destinationPath)
            }
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "write", path: path, errno: errno)
            }
            offset += n
        }
    }
}
