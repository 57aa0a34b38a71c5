import CryptoCMS
import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite struct AppStoreConnectTokenTests {
    func makeKey(_ directory: TemporaryDirectory) throws -> (AppStoreConnectKey, publicKey: String) {
        let path = directory.child("AuthKey.p8")
        #expect(try runToolNow("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]).status == 0)
        #expect(try runToolNow("openssl", ["pkey", "-in", path, "-pubout", "-out", directory.child("public.pem")]).status == 0)
        let key = try AppStoreConnectKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path, keyID: "ABC123DEFG",
                                         issuerID: "57246542-96fe-1a63-e053-0824d011072a")
        return (key, directory.child("public.pem"))
    }

    static func decode(_ part: Substring) -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text) ?? Data()
    }

    /// DER Ecdsa-Sig-Value from raw r‖s, for openssl.
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0 ..< 32]) + integer(raw[32 ..< 64])
        return [0x30, UInt8(body.count)] + body
    }

    @Test func tokensAreES256WithRawSignaturesThatOpenSSLVerifies() throws {
        let directory = try TemporaryDirectory()
        let (key, publicKey) = try makeKey(directory)
        let token = try AppStoreConnectTokens.make(key: key, issuedAt: 1_800_000_000, expiresAt: 1_800_001_140)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONSerialization.jsonObject(with: Self.decode(parts[0])) as? [String: Any]
        let claims = try JSONSerialization.jsonObject(with: Self.decode(parts[1])) as? [String: Any]
        #expect(header?["alg"] as? String == "ES256")
        #expect(header?["kid"] as? String == "ABC123DEFG")
        #expect(claims?["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims?["aud"] as? String == "appstoreconnect-v1")
        #expect((claims?["exp"] as? Int ?? 0) - (claims?["iat"] as? Int ?? 0) <= 1200)
        let signature = [UInt8](Self.decode(parts[2]))
        #expect(signature.count == 64, "raw r‖s, not DER")
        let signaturePath = try directory.write("signature.der", Self.der(signature))
        let verified = try runToolNow("openssl", ["dgst", "-sha256", "-verify", publicKey, "-signature", signaturePath],
                                      input: Data((parts[0] + "." + parts[1]).utf8))
        #expect(verified.status == 0, "openssl: \(verified.text) \(verified.error)")
    }

    @Test func aTokenIsReusedUntilShortlyBeforeItExpires() throws {
        let directory = try TemporaryDirectory()
        let tokens = AppStoreConnectTokens(key: try makeKey(directory).0)
        let start = at("2026-11-27T10:00:00Z")
        let first = try tokens.token(now: start)
        #expect(try tokens.token(now: start.addingTimeInterval(17 * 60)) == first)
        #expect(try tokens.token(now: start.addingTimeInterval(18 * 60 + 30)) != first, "within a minute of expiry a new one is made")
    }

    @Test func derSignaturesBecomeFixedWidthHalves() {
        // r has a leading zero byte for its sign, s is short: both come out as 32 bytes.
        let r = [UInt8](repeating: 0xFF, count: 32), s = [UInt8](repeating: 0x01, count: 31)
        let der: [UInt8] = [0x30, 0x44, 0x02, 0x21, 0x00] + r + [0x02, 0x1F] + s
        let raw = ES256Signer.rawSignature(fromDER: der, half: 32)
        #expect(raw == r + [0] + s)
        #expect(ES256Signer.rawSignature(fromDER: Array(der.dropLast()), half: 32) == nil)
        #expect(ES256Signer.rawSignature(fromDER: [0x30, 0x00], half: 32) == nil)
    }
}
