import CCrypto

/// ECDSA with P-256 and SHA-256 (JOSE's ES256) through libcrypto, with the signature in the raw
/// 64-byte r‖s form JSON Web Tokens use rather than the DER libcrypto produces.
///
/// The caller checks that the key is a P-256 key (its PKCS #8 header says so); libcrypto signs with
/// whatever EC key it is given, and a signature whose halves do not fit 32 bytes is refused here.
public struct ES256Signer: Sendable {
    /// The private key, PEM (PKCS #8 `BEGIN PRIVATE KEY`, or SEC 1 `BEGIN EC PRIVATE KEY`).
    let privateKeyPEM: String

    /// A signer over `privateKeyPEM`; the key is read (and refused when unreadable) right away.
    public init(privateKeyPEM: String) throws(CMSSigningError) {
        try CryptoLibrary.require()
        let key = try CMSSigningIdentity.readKey(Array(privateKeyPEM.utf8), passphrase: nil)
        bk_crypto_key_free(key)
        self.privateKeyPEM = privateKeyPEM
    }

    /// The 64-byte r‖s signature of `message`.
    public func sign(_ message: [UInt8]) throws(CMSSigningError) -> [UInt8] {
        try CryptoLibrary.require()
        let key = try CMSSigningIdentity.readKey(Array(privateKeyPEM.utf8), passphrase: nil)
        defer { bk_crypto_key_free(key) }
        var signature = [UInt8](repeating: 0, count: 160)
        var length = signature.count
        let signed = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                bk_crypto_sign_sha256(key, input.baseAddress, input.count, output.baseAddress, &length)
            }
        }
        guard signed == 1, length <= signature.count else {
            throw CMSSigningError.signingFailed(CryptoLibrary.takeError("EVP_DigestSign failed"))
        }
        guard let raw = Self.rawSignature(fromDER: Array(signature.prefix(length)), half: 32) else {
            throw CMSSigningError.signingFailed("the key is not a P-256 key (its signature does not fit 2 × 32 bytes)")
        }
        return raw
    }

    /// Converts a DER `Ecdsa-Sig-Value` (SEQUENCE { INTEGER r, INTEGER s }) to r‖s, each left-padded
    /// to `half` bytes; nil when the input is not that shape or a value is too large.
    public static func rawSignature(fromDER der: [UInt8], half: Int) -> [UInt8]? {
        var index = 0
        func length() -> Int? {
            guard index < der.count else { return nil }
            let first = der[index]
            index += 1
            if first < 0x80 { return Int(first) }
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 2, index + count <= der.count else { return nil }
            var value = 0
            for _ in 0 ..< count {
                value = value << 8 | Int(der[index])
                index += 1
            }
            return value
        }
        func integer() -> [UInt8]? {
            guard index < der.count, der[index] == 0x02 else { return nil }
            index += 1
            guard let count = length(), count > 0, index + count <= der.count else { return nil }
            var bytes = Array(der[index ..< index + count])
            index += count
            while bytes.count > 1, bytes[0] == 0 { bytes.removeFirst() }
            guard bytes.count <= half else { return nil }
            return [UInt8](repeating: 0, count: half - bytes.count) + bytes
        }
        guard der.first == 0x30 else { return nil }
        index = 1
        guard let total = length(), index + total == der.count, let r = integer(), let s = integer(), index == der.count else { return nil }
        return r + s
    }
}
