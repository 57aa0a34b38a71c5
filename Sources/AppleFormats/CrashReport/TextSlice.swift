#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
        while high > low, base[high - 1].isBlank { high -= 1 }
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
        guard count > 2, base[start] == UInt8(ascii: "0"), base[start + 1] | 0x20 == UInt8(ascii: "x") else { return nil }
        var value: UInt64 = 0
        for index in start + 2 ..< end {
            guard let digit = base[index].hexDigitValue, value >> 60 == 0 else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
