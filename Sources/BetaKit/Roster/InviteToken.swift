import AppleFormats

/// Makes the secret tokens in testers' page URLs.
enum InviteToken {
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
}
