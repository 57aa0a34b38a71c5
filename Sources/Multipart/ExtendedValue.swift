/// RFC 8187 extended parameter values (`filename*=UTF-8''na%C3%AFve.txt`).
enum ExtendedValue {
    /// Decodes `charset "'" [ language ] "'" value-chars`. UTF-8 and ISO-8859-1 are the charsets
    /// RFC 8187 §3.2.1 requires recipients to support; others are refused rather than guessed.
    static func decode(_ bytes: [UInt8]) throws(HeaderSyntaxError) -> String {
        let apostrophe = UInt8(ascii: "'")
        guard let first = bytes.firstIndex(of: apostrophe),
              let second = bytes[(first + 1)...].firstIndex(of: apostrophe) else {
            throw HeaderSyntaxError("is not charset'language'value")
        }
        let charset = HeaderParameters.lowercased(bytes[..<first])
        let language = bytes[(first + 1)..<second]
        guard language.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else {
            throw HeaderSyntaxError("has a malformed language tag")
        }
        var decoded: [UInt8] = []
        var index = second + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw HeaderSyntaxError("has a malformed %-escape")
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                guard isAttributeCharacter(byte) else {
                    throw HeaderSyntaxError("contains \(HeaderParameters.describe(byte)), which must be %-encoded")
                }
                decoded.append(byte)
                index += 1
            }
        }
        switch charset {
        case "utf-8":
            guard let text = String(validating: decoded, as: UTF8.self) else { throw HeaderSyntaxError("is not valid UTF-8") }
            return text
        case "iso-8859-1":
            return String(String.UnicodeScalarView(decoded.map { Unicode.Scalar($0) }))
        default:
            throw HeaderSyntaxError("uses the charset \"\(MultipartError.shortened(charset))\"; use UTF-8")
        }
    }

    /// `attr-char` of RFC 8187 §3.2.1.
    static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        // ! # $ & + - . ^ _ ` | ~
        isASCIIAlphanumeric(byte) || [0x21, 0x23, 0x24, 0x26, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E].contains(byte)
    }

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
