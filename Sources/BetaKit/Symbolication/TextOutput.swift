/// A growing UTF-8 buffer with the few formatting steps report rendering needs, so that frame
/// lines are written straight into the output instead of being built as strings and joined.
struct TextOutput {
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ number: Int) {
        guard number >= 0 else { return append(String(number)) }
        append(UInt64(number))
    }

    mutating func append(_ number: UInt64) {
        var width = 1, scale: UInt64 = 1
        while width < 20, number / scale >= 10 {
            scale *= 10
            width += 1
        }
        var value = number
        while width > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / scale))
            value %= scale
            scale /= 10
            width -= 1
        }
    }

    /// Lowercase hexadecimal, zero-padded to `digits` (0 for no padding).
    mutating func appendHex(_ number: UInt64, digits: Int) {
        var width = 1
        while width < 16, number >> (4 * UInt64(width)) != 0 { width += 1 }
        if digits > width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: Swift.min(16, digits) - width)) }
        for position in stride(from: width - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: number >> (4 * UInt64(position))) & 0xF
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    mutating func appendSpaces(_ count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    /// Spaces up to byte position `column`, and at least `minimum` of them.
    mutating func pad(to column: Int, minimum: Int) {
        appendSpaces(Swift.max(minimum, column - bytes.count))
    }

    /// The part of `path` after its last "/".
    ///
    /// (Used for file names in location lines.)
    mutating func appendLastPathComponent(_ path: String) {
        var path = path
        path.withUTF8 { utf8 in
            let start = (utf8.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
            bytes.append(contentsOf: utf8[start...])
        }
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
