/// A growing UTF-8 buffer with the few formatting steps report rendering needs, so that frame
/// lines are written straight into the output instead of being built as strings and joined.
///
/// It owns raw memory rather than an `[UInt8]`: a report is written in a few hundred small
/// pieces, and each array append pays for uniqueness and capacity checks that a pointer bump
/// does not. Being non-copyable, it can only be passed `inout` and frees its memory once. A
/// caller printing many reports keeps one and empties it between reports
/// (`SymbolicatedReport.renderText(appendingTo:)`), so no report is copied once more on its way out.
public struct TextOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    public private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 4096) {
        self.capacity = Swift.max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = newCapacity
    }

    /// The last byte written, if any.
    public var last: UInt8? { count > 0 ? base[count - 1] : nil }

    /// Forgets the last byte.
    mutating func removeLast() {
        if count > 0 { count -= 1 }
    }

    /// Forgets what was written, keeping the memory.
    public mutating func removeAll() { count = 0 }

    /// The bytes written, for a caller's own use during the call.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends what was written to `bytes`.
    func copy(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        if bytes.count <= 8 {
            // Separators and short names: a call to memcpy costs more than the bytes.
            for offset in 0 ..< bytes.count { base[count + offset] = source[offset] }
        } else {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Appends the UTF-8 of `text`.
    public mutating func append(string text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte: byte) }
        }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Bytes `range` of what was written, again (inlined frames repeat their frame's head).
    mutating func appendCopy(of range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty else { return }
        reserve(range.count)
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    mutating func append(_ number: Int) {
        guard number >= 0 else { return append(string: String(number)) }
        append(UInt64(number))
    }

    mutating func append(_ number: UInt64) {
        var digits = 1, rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        reserve(digits)
        var value = number
        var position = count + digits - 1
        repeat {
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            position -= 1
        } while value > 0
        count += digits
    }

    /// Lowercase hexadecimal, zero-padded to `digits` (0 for no padding).
    mutating func appendHex(_ number: UInt64, digits: Int) {
        let width = Swift.max(1, (64 - number.leadingZeroBitCount + 3) / 4)
        let total = Swift.max(width, Swift.min(16, digits))
        reserve(16)
        // All sixteen digits are made eight at a time in a register (every frame line has an
        // address), then the last `total` of them are kept.
        let high = Self.hexDigits(UInt32(truncatingIfNeeded: number >> 32))
        let low = Self.hexDigits(UInt32(truncatingIfNeeded: number))
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2) { scratch in
            scratch[0] = high
            scratch[1] = low
            let bytes = UnsafeRawPointer(scratch.baseAddress!).assumingMemoryBound(to: UInt8.self)
            (base + count).update(from: bytes + (16 - total), count: total)
        }
        count += total
    }

    /// The eight hex digits of `value`, most significant first, as the bytes of a UInt64 in
    /// memory order: each nibble is spread to its own byte, then turned into "0"-"9" or "a"-"f".
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 1 in each byte whose nibble is 10 or more.
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        // Byte 0 holds the lowest nibble: swapped, the most significant digit comes first in memory.
        return ascii.byteSwapped.littleEndian
    }

    mutating func appendSpaces(_ spaces: Int) {
        guard spaces > 0 else { return }
        reserve(spaces)
        (base + count).initialize(repeating: UInt8(ascii: " "), count: spaces)
        count += spaces
    }

    /// Spaces up to byte position `column`, and at least `minimum` of them.
    mutating func pad(to column: Int, minimum: Int) {
        appendSpaces(Swift.max(minimum, column - count))
    }

    /// The part of `path` after its last "/".
    ///
    /// (Used for file names in location lines.)
    mutating func appendLastPathComponent(_ path: String) {
        let done: Void? = path.utf8.withContiguousStorageIfAvailable { utf8 in
            var start = utf8.count
            while start > 0, utf8[start - 1] != UInt8(ascii: "/") { start -= 1 }
            append(UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        if done == nil { append(string: String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")) }
    }
}

extension Sequence {
    /// Whether the elements are in the order `areInIncreasingOrder` defines.
    func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        var previous: Element?
        for element in self {
            if let previous, areInIncreasingOrder(element, previous) { return false }
            previous = element
        }
        return true
    }
}
