/// HMAC-SHA256 (RFC 2104 over FIPS 180-4 SHA-256), for signing messages with a shared secret.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key` (any length; a key longer than
    /// SHA-256's 64-byte block is hashed first, as RFC 2104 says).
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var block = key.count > blockSize ? SHA256.hash(key).bytes : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(innerDigest.bytes)
        return outer.finalize().bytes
    }
}
