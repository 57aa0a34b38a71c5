import PosixIO

/// An append-only scratch file with a write buffer, used while building an index so that
/// memory stays flat however large the dSYM is. Removed when closed.
final class SpillFile {
    let path: String
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private(set) var count = 0
    static let bufferSize = 1 << 20

    init(path: String) throws {
        self.path = path
        do {
            file = try FileDescriptor.open(path, .readWrite, options: [.create, .exclusiveCreate], permissions: 0o600)
        } catch {
            throw FileSystemError(error, operation: "create")
        }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        try? file.close()
        _ = try? FileSystem.removeFile(path)
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
            try write(bytes)
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
        try copy.withUnsafeBytes { (raw) in try write(raw) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        do { try file.writeAll(bytes) } catch { throw FileSystemError(error) }
    }

    /// Copies the whole file to the end of `destination`.
    func copy(to destination: FileDescriptor, destinationPath: String) throws {
        try flush()
        let output = FileDescriptor(rawValue: destination.rawValue, path: destinationPath)
        var chunk = [UInt8](repeating: 0, count: Self.bufferSize)
        var offset: Int64 = 0
        while true {
            let n = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try file.read(into: raw, at: offset) }
            }.mapError { FileSystemError($0) }.get()
            if n == 0 { break }
            offset += Int64(n)
            try chunk.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in try output.writeAll(UnsafeRawBufferPointer(rebasing: raw[0 ..< n])) }
            }.mapError { FileSystemError($0) }.get()
        }
    }

    static func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        do { try FileDescriptor(rawValue: fd.rawValue, path: path).writeAll(bytes) } catch { throw FileSystemError(error) }
    }
}
