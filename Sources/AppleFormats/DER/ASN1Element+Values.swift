#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ASN1Element {
    /// The value of a BOOLEAN (BER allows any non-zero byte for true).
    public func boolean() throws(DERError) -> Bool {
        try expect(.boolean, "BOOLEAN")
        guard content.count == 1, let byte = content.first else {
            throw DERError.invalidValue(offset: offset, "BOOLEAN has \(content.count) content bytes, expected 1")
        }
        return byte != 0
    }

    /// The value of an INTEGER that fits in 64 bits.
    public func integer() throws(DERError) -> Int64 {
        try expect(.integer, "INTEGER")
        guard !content.isEmpty else { throw DERError.invalidValue(offset: offset, "INTEGER has no content bytes") }
        guard content.count <= 8 else {
            throw DERError.invalidValue(offset: offset, "INTEGER of \(content.count) bytes does not fit in 64 bits")
        }
        var value: Int64 = (content.first ?? 0) & 0x80 != 0 ? -1 : 0
        for byte in content { value = value << 8 | Int64(byte) }
        return value
    }

    /// The raw two's-complement bytes of an INTEGER of any size, such as a certificate serial number.
    public func integerBytes() throws(DERError) -> [UInt8] {
        try expect(.integer, "INTEGER")
        guard !content.isEmpty else { throw DERError.invalidValue(offset: offset, "INTEGER has no content bytes") }
        return Array(content)
    }

    /// An OBJECT IDENTIFIER in dotted form, such as "1.2.840.113549.1.7.2".
    public func objectIdentifier() throws(DERError) -> String {
        try expect(.objectIdentifier, "OBJECT IDENTIFIER")
        guard !content.isEmpty, content.last.map({ $0 & 0x80 == 0 }) == true else {
            throw DERError.invalidValue(offset: offset, "OBJECT IDENTIFIER is empty or ends mid-component")
        }
        var components: [UInt64] = []
        var value: UInt64 = 0
        var octets = 0
        for byte in content {
            octets += 1
            guard octets <= 9 else { throw DERError.invalidValue(offset: offset, "OBJECT IDENTIFIER component exceeds 63 bits") }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                components.append(value)
                value = 0
                octets = 0
            }
        }
        let first = components[0]
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + components.dropFirst()).map(String.init).joined(separator: ".")
    }

    /// The text of any ASN.1 string type (UTF8String, PrintableString, IA5String, T61String, BMPString, UniversalString).
    public func string() throws(DERError) -> String {
        guard tag.tagClass == .universal else {
            throw DERError.unexpected(offset: offset, expected: "a string", found: "\(tag)")
        }
        let bytes = try primitiveOrSegmentedContent()
        switch tag.number {
        case 12, 19, 22, 26:  // UTF8, Printable, IA5, Visible
            return String(decoding: bytes, as: UTF8.self)
        case 20:  // T61/Teletex: in practice Latin-1
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        case 30:  // BMPString: UTF-16BE
            guard bytes.count % 2 == 0 else { throw DERError.invalidValue(offset: offset, "BMPString has an odd length") }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case 28:  // UniversalString: UTF-32BE
            guard bytes.count % 4 == 0 else { throw DERError.invalidValue(offset: offset, "UniversalString length is not a multiple of 4") }
            var text = ""
            for index in stride(from: 0, to: bytes.count, by: 4) {
                let value = UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                text.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            }
            return text
        default:
            throw DERError.unexpected(offset: offset, expected: "a string", found: "\(tag)")
        }
    }

    /// The bytes of an OCTET STRING, joining the segments of BER's constructed form.
    public func octetString() throws(DERError) -> [UInt8] {
        guard tag.tagClass == .universal, tag.number == 4 else {
            throw DERError.unexpected(offset: offset, expected: "OCTET STRING", found: "\(tag)")
        }
        return try primitiveOrSegmentedContent()
    }

    /// A UTCTime or GeneralizedTime as a date.
    public func time() throws(DERError) -> Date {
        guard tag == .utcTime || tag == .generalizedTime else {
            throw DERError.unexpected(offset: offset, expected: "UTCTime or GeneralizedTime", found: "\(tag)")
        }
        let text = Array(content)
        do {
            // Fractions of a second (GeneralizedTime) do not matter for validity checks.
            return try UTCDateComponents.parse(text, layout: tag == .utcTime ? .utcTime : .generalizedTime).components.date
        } catch {
            let problem = switch error {
            case .tooShort: "is too short"
            case .notADigit, .misplacedSeparator: "has a non-digit"
            case .notUTC: "is not in UTC (no trailing Z)"
            case .outOfRange: "is out of range"
            }
            throw DERError.invalidValue(offset: offset, "time \"\(String(decoding: text, as: UTF8.self))\" \(problem)")
        }
    }

    private func primitiveOrSegmentedContent() throws(DERError) -> [UInt8] {
        guard tag.isConstructed else { return Array(content) }
        var joined: [UInt8] = []
        for segment in children {
            guard segment.tag.tagClass == .universal, segment.tag.number == tag.number else {
                throw DERError.unexpected(offset: segment.offset, expected: "a segment of the constructed \(tag)", found: "\(segment.tag)")
            }
            joined += try segment.primitiveOrSegmentedContent()
        }
        return joined
    }
}
