/// Base64 (RFC 4648): the standard form with padding, as property lists store `<data>`, and the
/// URL- and filename-safe form without padding, for secrets in URLs.
public enum Base64 {
    /// Which of RFC 4648's encodings to write.
    public enum Variant: Sendable {
        /// `A-Z a-z 0-9 + /`, padded with `=` to a multiple of four characters (RFC 4648 section 4).
        case standard
        /// `A-Z a-z 0-9 - _` without padding (RFC 4648 section 5), safe in URL paths and file names.
        case urlSafeUnpadded
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlSafeAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    // The value of each alphabet byte; 0xFF for bytes outside the alphabet.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The encoding of `bytes` in `variant`, without line breaks.
    public static func encode(_ bytes: [UInt8], _ variant: Variant = .standard) -> [UInt8] {
        let padded = variant == .standard
        let alphabet = padded ? alphabet : urlSafeAlphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let b0 = UInt32(bytes[index])
            let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if count > 1 { out.append(alphabet[Int(group >> 6 & 63)]) } else if padded { out.append(UInt8(ascii: "=")) }
            if count > 2 { out.append(alphabet[Int(group & 63)]) } else if padded { out.append(UInt8(ascii: "=")) }
            index += 3
        }
        return out
    }

    /// Decodes `text`, skipping XML whitespace (plists wrap base64 over indented lines).
    /// Anything else outside the alphabet, misplaced padding or a dangling character is an error.
    static func decode(_ text: ArraySlice<UInt8>) throws(PlistError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0, filled = 0, padding = 0
        var finished = false
        for byte in text {
            if byte.isXMLWhitespace { continue }
            guard !finished else { throw PlistError("base64 continues after its padding") }
            if byte == UInt8(ascii: "=") {
                guard filled >= 2 else { throw PlistError("base64 padding comes too early in a group") }
                padding += 1
            } else {
                let value = values[Int(byte)]
                guard value != 0xFF else { throw PlistError("byte 0x\(String(byte, radix: 16)) is not base64") }
                guard padding == 0 else { throw PlistError("base64 continues after its padding") }
                group = group << 6 | UInt32(value)
            }
            filled += 1
            guard filled == 4 else { continue }
            group <<= 6 * UInt32(padding)
            out.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { out.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { out.append(UInt8(truncatingIfNeeded: group)) }
            finished = padding > 0
            group = 0
            filled = 0
        }
        guard filled == 0 else { throw PlistError("base64 ends in the middle of a group") }
        return out
    }
}
