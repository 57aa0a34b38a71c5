import AppleFormats

/// Makes the secret tokens in testers' page URLs, and the digests they are looked up by.
public enum InviteToken {
    /// 32 random bytes (256 bits) from the system's CSPRNG, base64url without padding: 43 characters.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0 ..< 4 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return base64URL(bytes)
    }

    /// `bytes` in base64url without padding, the form tokens take in URLs.
    static func base64URL(_ bytes: [UInt8]) -> String {
        String(decoding: Base64.encode(bytes, .urlSafeUnpadded), as: UTF8.self)
    }

    /// The hex SHA-256 of a token as it appears in a URL: what the database indexes and pages look up.
    public static func digest(_ token: String) -> String {
        SHA256.hash(Array(token.utf8)).hex
    }

    /// Whether `text` has the shape of a token (1–128 base64url characters), checked before hashing
    /// so absurd path segments are turned away cheaply.
    public static func isPlausible(_ text: some StringProtocol) -> Bool {
        let utf8 = text.utf8
        return (1 ... 128).contains(utf8.count) && utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
        }
    }
}
