/// A device's UDID, validated and normalised.
///
/// Apple uses three shapes: 40 hex digits (devices from before 2018), 8 hex
/// digits + dash + 16 hex digits (iPhone XS and later, Apple silicon Macs), and
/// a 36-character UUID (Intel Macs). Input is case-insensitive; the stored form
/// is lowercase for the 40-digit shape and uppercase for the others, as Apple
/// prints them.
public struct DeviceIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Which of Apple's UDID shapes this is.
    public enum Form: String, Sendable {
        /// 40 hex digits.
        case legacy
        /// `XXXXXXXX-XXXXXXXXXXXXXXXX`.
        case modern
        /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
        case uuid
    }

    /// The normalised UDID.
    public let value: String
    /// The UDID's shape.
    public let form: Form

    /// Validates `text` (surrounding whitespace is ignored).
    public init(_ text: String) throws(DeviceIdentifierError) {
        let trimmed = text.utf8.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 || $0 == 13 }.reversed()
        let bytes = Array(trimmed)
        func isHex(_ byte: UInt8) -> Bool { byte.hexDigitValue != nil }
        func hexRun(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy(isHex) }
        let dashes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "-") }
        let raw = String(decoding: bytes, as: UTF8.self)
        switch bytes.count {
        case 40 where dashes.isEmpty && hexRun(0 ..< 40):
            value = raw.lowercased(); form = .legacy
        case 25 where dashes == [8] && hexRun(0 ..< 8) && hexRun(9 ..< 25):
            value = raw.uppercased(); form = .modern
        case 36 where dashes == [8, 13, 18, 23] && hexRun(0 ..< 8) && hexRun(9 ..< 13) && hexRun(14 ..< 18) && hexRun(19 ..< 23) && hexRun(24 ..< 36):
            value = raw.uppercased(); form = .uuid
        default:
            throw DeviceIdentifierError(input: text, reason: Self.reason(bytes, dashes: dashes, isHex: isHex))
        }
    }

    private static func reason(_ bytes: [UInt8], dashes: [Int], isHex: (UInt8) -> Bool) -> String {
        if bytes.isEmpty { return "it is empty" }
        if let bad = bytes.first(where: { !isHex($0) && $0 != UInt8(ascii: "-") }) {
            let shown = bad >= 32 && bad < 127 ? "\"\(Character(Unicode.Scalar(bad)))\"" : "byte 0x\(String(bad, radix: 16))"
            return "it contains \(shown), which is not a hex digit"
        }
        switch bytes.count {
        case 40, 25, 36: return "its dashes are in the wrong places"
        default: return "it has \(bytes.count) character\(bytes.count == 1 ? "" : "s")"
        }
    }

    /// The normalised UDID.
    public var description: String { value }

    /// Orders UDIDs by their normalised text.
    public static func < (lhs: DeviceIdentifier, rhs: DeviceIdentifier) -> Bool { lhs.value < rhs.value }
}

/// A string that is not a UDID, with the reason and the accepted forms.
public struct DeviceIdentifierError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was given.
    public var input: String
    /// What is wrong with it.
    public var reason: String

    /// A sentence naming the value, what is wrong and the accepted forms.
    public var description: String {
        "\"\(input)\" is not a device UDID (\(reason)); use one of Apple's forms: 40 hex digits (older devices), 8 hex digits, a dash and 16 hex digits like 00008030-001A2B3C4D5E6F70 (iPhone XS and later, Apple silicon Macs), or a 36-character UUID (Intel Macs)"
    }
}
