/// The output of a hash function: raw bytes with a lowercase hex rendering.
///
/// Digests key the content-addressed archive and identify certificates, so they
/// are value types that compare and hash by their bytes.
public struct HashDigest: Hashable, Sendable, CustomStringConvertible {
    /// The digest bytes, most significant first (as `sha256sum` prints them).
    public let bytes: [UInt8]

    /// Wraps digest bytes produced elsewhere.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a hex string of any even length; nil when it contains non-hex characters.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        bytes = out
    }

    /// The digest as lowercase hex.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest as uppercase hex separated by colons, the way Keychain Access shows fingerprints.
    public var colonSeparatedHex: String {
        var parts: [String] = []
        let lower = Array(hex.uppercased())
        var index = 0
        while index + 1 < lower.count {
            parts.append(String(lower[index ... index + 1]))
            index += 2
        }
        return parts.joined(separator: ":")
    }

    /// Same as `hex`.
    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
