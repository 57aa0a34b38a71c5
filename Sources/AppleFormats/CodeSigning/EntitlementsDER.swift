/// Writes entitlements in the DER form iOS 15 and later read (the 0xfade7172 blob's payload):
/// `[APPLICATION 16] { INTEGER 1, [16] { SEQUENCE { UTF8String key, value }… } }`, keys sorted
/// bytewise, nested dictionaries in the same `[16]` form, arrays as SEQUENCE.
public enum EntitlementsDER {
    /// The DER of `entitlements`; nil when a value has no DER form (dates, reals).
    public static func encode(_ entitlements: [String: PlistValue]) -> [UInt8]? {
        guard let body = value(.dictionary(entitlements)) else { return nil }
        return tlv(0x70, tlv(0x02, [0x01]) + body)
    }

    static func value(_ value: PlistValue) -> [UInt8]? {
        switch value {
        case let .bool(flag): return tlv(0x01, [flag ? 0xff : 0x00])
        case let .integer(number): return tlv(0x02, integerBytes(number))
        case let .string(text): return tlv(0x0c, Array(text.utf8))
        case let .data(bytes): return tlv(0x04, bytes)
        case let .array(items):
            var body: [UInt8] = []
            for item in items {
                guard let encoded = self.value(item) else { return nil }
                body += encoded
            }
            return tlv(0x30, body)
        case let .dictionary(entries):
            var body: [UInt8] = []
            for key in entries.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                guard let entry = entries[key], let encoded = self.value(entry) else { return nil }
                body += tlv(0x30, tlv(0x0c, Array(key.utf8)) + encoded)
            }
            return tlv(0xb0, body)
        case .real, .date: return nil
        }
    }

    static func integerBytes(_ number: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: number.bigEndian, Array.init)
        // Minimal two's complement: drop leading bytes that only repeat the sign.
        while bytes.count > 1, (bytes[0] == 0 && bytes[1] < 0x80) || (bytes[0] == 0xff && bytes[1] >= 0x80) { bytes.removeFirst() }
        return bytes
    }

    static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        if body.count < 0x80 { return [tag, UInt8(body.count)] + body }
        var length: [UInt8] = []
        var remaining = body.count
        while remaining > 0 { length.insert(UInt8(remaining & 0xff), at: 0); remaining >>= 8 }
        return [tag, 0x80 | UInt8(length.count)] + length + body
    }
}
