/// A bounds-checked cursor over a borrowed byte buffer.
///
/// Every parser in AppleFormats reads through this type so that hostile input can
/// only ever produce a `BinaryError`, never an out-of-bounds trap. The reader does
/// not own its bytes: callers keep the buffer alive (usually inside
/// `withUnsafeBytes` or for the life of a memory-mapped file).
public struct ByteReader {
    /// The whole buffer this reader may look at.
    public let bytes: UnsafeRawBufferPointer
    /// The position of the next read, relative to the start of `bytes`.
    public var offset: Int

    /// Creates a reader positioned at `offset` within `bytes`.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes between the cursor and the end of the buffer.
    @inlinable
    public var remaining: Int { Swift.max(0, bytes.count - offset) }

    /// Whether the cursor has reached the end of the buffer.
    @inlinable
    public var isAtEnd: Bool { offset >= bytes.count }

    @inlinable
    func require(_ count: Int) throws(BinaryError) {
        guard count >= 0, offset >= 0, count <= bytes.count - offset else {
            throw BinaryError.truncated(at: offset, needed: count, available: remaining)
        }
    }

    /// Moves the cursor forward by `count` bytes.
    @inlinable
    public mutating func skip(_ count: Int) throws(BinaryError) {
        try require(count)
        offset += count
    }

    /// Moves the cursor to an absolute position; the end of the buffer is allowed.
    @inlinable
    public mutating func seek(to position: Int) throws(BinaryError) {
        guard position >= 0, position <= bytes.count else {
            throw BinaryError.outOfBounds(offset: position, size: bytes.count)
        }
        offset = position
    }

    /// Reads one byte.
    @inlinable
    public mutating func u8() throws(BinaryError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    @inlinable
    mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(BinaryError) -> T {
        let size = MemoryLayout<T>.size
        try require(size)
        defer { offset += size }
        return bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Reads a little-endian 16-bit integer.
    @inlinable public mutating func u16le() throws(BinaryError) -> UInt16 { UInt16(littleEndian: try fixed(UInt16.self)) }
    /// Reads a little-endian 32-bit integer.
    @inlinable public mutating func u32le() throws(BinaryError) -> UInt32 { UInt32(littleEndian: try fixed(UInt32.self)) }
    /// Reads a little-endian 64-bit integer.
    @inlinable public mutating func u64le() throws(BinaryError) -> UInt64 { UInt64(littleEndian: try fixed(UInt64.self)) }
    /// Reads a big-endian 16-bit integer.
    @inlinable public mutating func u16be() throws(BinaryError) -> UInt16 { UInt16(bigEndian: try fixed(UInt16.self)) }
    /// Reads a big-endian 32-bit integer.
    @inlinable public mutating func u32be() throws(BinaryError) -> UInt32 { UInt32(bigEndian: try fixed(UInt32.self)) }
    /// Reads a big-endian 64-bit integer.
    @inlinable public mutating func u64be() throws(BinaryError) -> UInt64 { UInt64(bigEndian: try fixed(UInt64.self)) }

    /// Reads a little-endian unsigned integer of 1, 2, 3, 4 or 8 bytes (DWARF uses 3-byte forms).
    @inlinable
    public mutating func uintLE(byteCount: Int) throws(BinaryError) -> UInt64 {
        switch byteCount {
        case 1: return UInt64(try u8())
        case 2: return UInt64(try u16le())
        case 4: return UInt64(try u32le())
        case 8: return try u64le()
        case 3:
            try require(3)
            defer { offset += 3 }
            return UInt64(bytes[offset]) | UInt64(bytes[offset + 1]) << 8 | UInt64(bytes[offset + 2]) << 16
        default:
            throw BinaryError.invalid(at: offset, "unsupported integer width \(byteCount)")
        }
    }

    /// Reads an unsigned LEB128 value; values wider than 64 bits are an error, not silently truncated.
    @inlinable
    public mutating func uleb128() throws(BinaryError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < bytes.count else {
                throw BinaryError.truncated(at: start, needed: offset - start + 1, available: offset - start)
            }
            let byte = bytes[offset]
            offset += 1
            let payload = UInt64(byte & 0x7f)
            if shift < 64 {
                if shift == 63 && payload > 1 { throw BinaryError.invalid(at: start, "LEB128 value exceeds 64 bits") }
                result |= payload << shift
            } else if payload != 0 {
                throw BinaryError.invalid(at: start, "LEB128 value exceeds 64 bits")
            }
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 70 { throw BinaryError.invalid(at: start, "LEB128 value is longer than 10 bytes") }
        }
    }

    /// Reads a signed LEB128 value.
    @inlinable
    public mutating func sleb128() throws(BinaryError) -> Int64 {
        var result: Int64 = 0
        var shift: Int64 = 0
        let start = offset
        var byte: UInt8 = 0
        repeat {
            guard offset < bytes.count else {
                throw BinaryError.truncated(at: start, needed: offset - start + 1, available: offset - start)
            }
            byte = bytes[offset]
            offset += 1
            if shift < 64 { result |= Int64(byte & 0x7f) << shift }
            shift += 7
            if shift > 70 { throw BinaryError.invalid(at: start, "LEB128 value is longer than 10 bytes") }
        } while byte & 0x80 != 0
        if shift < 64 && byte & 0x40 != 0 { result |= Int64(-1) << shift }
        return result
    }

    /// Returns the next `count` bytes as a borrowed slice and advances past them.
    @inlinable
    public mutating func bytes(_ count: Int) throws(BinaryError) -> UnsafeRawBufferPointer {
        try require(count)
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count])
    }

    /// Copies the next `count` bytes into an array.
    @inlinable
    public mutating func array(_ count: Int) throws(BinaryError) -> [UInt8] {
        Array(try bytes(count))
    }

    /// Reads a NUL-terminated UTF-8 string (invalid UTF-8 is repaired, not rejected).
    @inlinable
    public mutating func cString() throws(BinaryError) -> String {
        let start = offset
        var end = offset
        while end < bytes.count && bytes[end] != 0 { end += 1 }
        guard end < bytes.count else {
            throw BinaryError.invalid(at: start, "string is not NUL-terminated before the end of the data")
        }
        offset = end + 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< end]), as: UTF8.self)
    }

    /// Reads a fixed-width, NUL-padded string field such as a Mach-O segment name.
    @inlinable
    public mutating func fixedString(_ width: Int) throws(BinaryError) -> String {
        let field = try bytes(width)
        let length = field.firstIndex(of: 0) ?? width
        return String(decoding: UnsafeRawBufferPointer(rebasing: field[0 ..< length]), as: UTF8.self)
    }

    /// A reader over `count` bytes starting at absolute `position`, positioned at its start.
    @inlinable
    public func slice(at position: Int, count: Int) throws(BinaryError) -> ByteReader {
        guard position >= 0, count >= 0, position <= bytes.count, count <= bytes.count - position else {
            throw BinaryError.outOfBounds(offset: position, size: bytes.count, length: count)
        }
        return ByteReader(UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count]))
    }

    /// Reads the next `count` bytes as a sub-reader and advances past them.
    @inlinable
    public mutating func subReader(_ count: Int) throws(BinaryError) -> ByteReader {
        ByteReader(try bytes(count))
    }
}
