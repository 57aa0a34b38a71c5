// memchr: the C library's vectorised byte search (no system call); the only C function used here.
#if canImport(Glibc)
import func Glibc.memchr
#elseif canImport(Darwin)
import func Darwin.memchr
#endif

/// A run of a crash report's UTF-8 bytes, for the text layout's parser.
///
/// The layout is ASCII where it matters (numbers, addresses, separators), so the parser works
/// on bytes: no grapheme breaking, no String indices, no copies until a field is kept. Bounds are
/// clamped when a slice is made, so every index between `start` and `end` is inside the buffer.
struct TextSlice {
    let base: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int

    init(_ base: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.base = base
        self.start = Swift.min(Swift.max(0, start), base.count)
        self.end = Swift.max(self.start, Swift.min(end, base.count))
    }

    var isEmpty: Bool { start == end }
    var count: Int { end - start }
    var first: UInt8? { start < end ? base[start] : nil }
    var last: UInt8? { start < end ? base[end - 1] : nil }

    /// The slice from `from` (absolute) to its end.
    func suffix(from: Int) -> TextSlice { TextSlice(base, Swift.max(from, start), end) }
    /// The slice from its start up to `to` (absolute).
    func prefix(upTo: Int) -> TextSlice { TextSlice(base, start, Swift.min(upTo, end)) }
    /// The bytes between two absolute positions, within the slice.
    func slice(_ from: Int, _ to: Int) -> TextSlice { TextSlice(base, Swift.max(from, start), Swift.min(to, end)) }
    /// Without its first `count` bytes.
    func dropFirst(_ count: Int = 1) -> TextSlice { TextSlice(base, start + count, end) }
    /// Without as many leading bytes as `prefix` has (callers check `hasPrefix` first).
    func dropping(_ prefix: StaticString) -> TextSlice { dropFirst(prefix.utf8CodeUnitCount) }
    /// Without its last `count` bytes.
    func dropLast(_ count: Int = 1) -> TextSlice { TextSlice(base, start, end - count) }

    /// The bytes as a string (invalid UTF-8 is repaired, as reports are only displayed).
    var string: String { String(decoding: UnsafeBufferPointer(rebasing: base[start ..< end]), as: UTF8.self) }

    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmed: TextSlice {
        var low = start, high = end
        while low < high, base[low].isBlank { low += 1 }
        // Frame lines pad image names with dozens of spaces (then a tab): eight at a time.
        let origin = base.baseAddress
        while high > low {
            if high - low >= 8, let origin, UnsafeRawPointer(origin + high - 8).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 {
                high -= 8
            } else if base[high - 1].isBlank {
                high -= 1
            } else {
                break
            }
        }
        return TextSlice(base, low, high)
    }

    /// Without leading spaces and tabs.
    var droppingLeadingBlanks: TextSlice {
        var low = start
        while low < end, base[low] == 0x20 || base[low] == 0x09 { low += 1 }
        return TextSlice(base, low, end)
    }

    /// Without leading whitespace of any kind, line breaks included.
    var droppingLeadingWhitespace: TextSlice {
        var low = start
        while low < end, base[low].isBlank || base[low] == 0x0a || base[low] == 0x0b || base[low] == 0x0c { low += 1 }
        return TextSlice(base, low, end)
    }

    /// Whether the slice holds nothing but blanks.
    var isBlankLine: Bool { trimmed.isEmpty }

    /// The leading run of ASCII digits.
    var leadingDigits: TextSlice {
        var high = start
        while high < end, base[high].isASCIIDigit { high += 1 }
        return TextSlice(base, start, high)
    }

    /// The leading run of non-blank bytes.
    var leadingToken: TextSlice {
        var high = start
        while high < end, !base[high].isBlank { high += 1 }
        return TextSlice(base, start, high)
    }

    /// The first position of `byte`.
    func firstIndex(of byte: UInt8) -> Int? {
        guard start < end, let origin = base.baseAddress,
              let found = memchr(origin + start, Int32(byte), end - start) else { return nil }
        return origin.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The last position of `byte`.
    func lastIndex(of byte: UInt8) -> Int? {
        var index = end
        while index > start {
            index -= 1
            if base[index] == byte { return index }
        }
        return nil
    }

    /// Whether the bytes at `position` spell `needle`.
    func matches(_ needle: StaticString, at position: Int) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard position >= start, count <= end - position else { return false }
        let pattern = needle.utf8Start
        for offset in 0 ..< count where base[position + offset] != pattern[offset] { return false }
        return true
    }

    func hasPrefix(_ needle: StaticString) -> Bool { matches(needle, at: start) }
    func hasSuffix(_ needle: StaticString) -> Bool { matches(needle, at: end - needle.utf8CodeUnitCount) }
    /// Whether the slice is exactly `text`.
    func equals(_ text: StaticString) -> Bool { count == text.utf8CodeUnitCount && hasPrefix(text) }

    /// The first occurrence of `needle`, as absolute positions.
    func range(of needle: StaticString) -> Range<Int>? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, count <= self.count else { return nil }
        let first = needle.utf8Start[0]
        var cursor = self
        while let index = cursor.firstIndex(of: first), index <= end - count {
            if matches(needle, at: index) { return index ..< index + count }
            cursor = suffix(from: index + 1)
        }
        return nil
    }

    /// The last occurrence of `needle`, as absolute positions.
    func lastRange(of needle: StaticString) -> Range<Int>? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, count <= self.count else { return nil }
        var index = end - count
        while index >= start {
            if matches(needle, at: index) { return index ..< index + count }
            index -= 1
        }
        return nil
    }

    /// The slice as a decimal number without sign (nil when empty, not all digits, or too large).
    var decimal: UInt64? {
        guard !isEmpty else { return nil }
        return try? UInt64(digits: base[start ..< end], radix: 10)
    }

    /// The slice as a decimal `Int` (digits only).
    var int: Int? { decimal.flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil } }

    /// `0x`-prefixed hexadecimal (either case of x), as an address.
    var hexAddress: UInt64? {
        guard count > 2, base[start] == UInt8(ascii: "0"), base[start + 1] | 0x20 == UInt8(ascii: "x"),
              let (value, stop) = Self.hexDigits(base, from: start + 2, end: end, stopAtBlank: false), stop == end else { return nil }
        return value
    }

    /// The value of the hex digits from `from` up to `end` (or, with `stopAtBlank`, up to the first
    /// space, tab or carriage return), and where they stop; nil when there is no digit, a byte
    /// is neither a digit nor (with `stopAtBlank`) a blank, or the value needs more than 64 bits.
    ///
    /// Every frame line has an address, so digits are taken eight at a time where they can be:
    /// the eight bytes are checked and converted together in one 64-bit word.
    static func hexDigits(_ base: UnsafeBufferPointer<UInt8>, from: Int, end: Int, stopAtBlank: Bool) -> (UInt64, Int)? {
        guard let origin = base.baseAddress, from >= 0, from < end, end <= base.count else { return nil }
        var value: UInt64 = 0
        var position = from
        while end - position >= 8, value >> 32 == 0 {
            let word = UInt64(littleEndian: UnsafeRawPointer(origin + position).loadUnaligned(as: UInt64.self))
            guard let eight = swarHex(word) else { break }
            value = value << 32 | UInt64(eight)
            position += 8
        }
        while position < end {
            let byte = base[position]
            if stopAtBlank, byte.isBlank { break }
            guard let digit = byte.hexDigitValue, value >> 60 == 0 else { return nil }
            value = value << 4 | UInt64(digit)
            position += 1
        }
        return position > from ? (value, position) : nil
    }

    /// The value of eight ASCII hex digits (the first in the lowest byte of `word`), nil unless
    /// every byte is one.
    @inline(__always)
    static func swarHex(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        guard word & (ones &* 0x80) == 0 else { return nil }
        // For bytes below 0x80 none of these sums carries into the next byte: the high bit of
        // each says whether the byte is at least the bound.
        let digits = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x7F - 0x39))
        let lower = word | ones &* 0x20
        let letters = (lower &+ ones &* (0x80 - 0x61)) & ~(lower &+ ones &* (0x7F - 0x66))
        guard (digits | letters) & (ones &* 0x80) == ones &* 0x80 else { return nil }
        // "0"-"9" are 0x30-0x39, letters 0x41-0x46 or 0x61-0x66: the low nibble, plus 9 for letters.
        var nibbles = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
        // Pack: each step joins neighbours, the earlier (more significant) digit on top.
        nibbles = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF
        nibbles = ((nibbles << 8) | (nibbles >> 16)) & 0x0000_FFFF_0000_FFFF
        nibbles = ((nibbles << 16) | (nibbles >> 32)) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: nibbles)
    }
}
