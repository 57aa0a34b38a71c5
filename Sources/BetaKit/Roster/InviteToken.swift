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

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index ..< min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            let characters = chunk.count + 1
            for position in 0 ..< characters {
                out.append(alphabet[Int((value >> (18 - 6 * position)) & 0x3f)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
