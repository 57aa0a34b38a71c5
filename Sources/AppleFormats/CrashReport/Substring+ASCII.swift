/// Byte-level helpers for the crash report text layout, which is ASCII where it matters
/// (numbers, addresses, separators). Working on UTF-8 bytes avoids grapheme breaking and
/// Foundation bridging, which made parsing a report cost milliseconds.
extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmed: Substring {
        let bytes = utf8
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start].isBlank { start = bytes.index(after: start) }
        while end > start {
            let before = bytes.index(before: end)
            guard bytes[before].isBlank else { break }
            end = before
        }
        return self[start ..< end]
    }

    /// Without leading spaces and tabs.
    var droppingLeadingBlanks: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        while start < bytes.endIndex, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        return self[start...]
    }

    /// Whether the line holds nothing but blanks.
    var isBlankLine: Bool { utf8.allSatisfy(\.isBlank) }

    /// The leading run of ASCII digits.
    var leadingDigits: Substring {
        var end = utf8.startIndex
        while end < utf8.endIndex, utf8[end].isASCIIDigit { end = utf8.index(after: end) }
        return self[..<end]
    }

    /// The leading run of non-blank bytes.
    var leadingToken: Substring {
        var end = utf8.startIndex
        while end < utf8.endIndex, !utf8[end].isBlank { end = utf8.index(after: end) }
        return self[..<end]
    }

    /// The first position of `byte`.
    func firstIndex(ofByte byte: UInt8) -> Index? { utf8.firstIndex(of: byte) }

    /// The last position of `byte`.
    func lastIndex(ofByte byte: UInt8) -> Index? { utf8.lastIndex(of: byte) }

    /// The first occurrence of the ASCII string `needle`.
    func range(ofASCII needle: StaticString) -> Range<Index>? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return nil }
        var cursor = utf8.startIndex
        while let candidate = utf8[cursor...].firstIndex(of: first) {
            var i = candidate, j = 0
            while j < pattern.count, i < utf8.endIndex, utf8[i] == pattern[j] {
                i = utf8.index(after: i)
                j += 1
            }
            if j == pattern.count { return candidate ..< i }
            cursor = utf8.index(after: candidate)
        }
        return nil
    }

    /// The last occurrence of the ASCII string `needle`.
    func lastRange(ofASCII needle: StaticString) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.range(ofASCII: needle) {
            found = range
            rest = rest[range.upperBound...]
        }
        return found
    }

    /// Splits `text` into lines on "\n", dropping a "\r" before it and keeping empty lines.
    static func lines(of text: String) -> [Substring] {
        let whole = Substring(text)
        var result: [Substring] = []
        var start = whole.utf8.startIndex
        for index in whole.utf8.indices where whole.utf8[index] == 0x0a {
            var line = whole[start ..< index]
            if line.utf8.last == 0x0d { line = line.dropLast() }
            result.append(line)
            start = whole.utf8.index(after: index)
        }
        var last = whole[start...]
        if last.utf8.last == 0x0d { last = last.dropLast() }
        result.append(last)
        return result
    }
}

extension UInt8 {
    /// Space, tab or carriage return.
    var isBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0d }
    /// 0-9.
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    /// 0-9, a-f, A-F.
    var isASCIIHexDigit: Bool { isASCIIDigit || (self | 0x20 >= 0x61 && self | 0x20 <= 0x66) }
}
