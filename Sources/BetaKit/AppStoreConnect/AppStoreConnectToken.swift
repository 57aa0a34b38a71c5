#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CryptoCMS
import Synchronization

/// Makes the ES256 JSON Web Tokens App Store Connect requires, and reuses each until shortly
/// before it expires: header `alg` ES256, `kid`, `typ` JWT; claims `iss` (issuer id), `iat`, `exp`
/// (19 minutes on, Apple allows at most 20) and `aud` `appstoreconnect-v1`; the signature is the
/// raw 64-byte r‖s.
final class AppStoreConnectTokens: Sendable {
    /// How long a token is valid.
    static let lifetime: TimeInterval = 19 * 60
    /// A token is replaced this long before it expires.
    static let margin: TimeInterval = 60

    let key: AppStoreConnectKey
    private let cached = Mutex<(token: String, expires: Date)?>(nil)

    init(key: AppStoreConnectKey) { self.key = key }

    /// A token valid at `now` for at least `margin` more.
    func token(now: Date) throws(AppStoreConnectError) -> String {
        if let current = cached.withLock({ $0 }), current.expires.timeIntervalSince(now) > Self.margin,
           current.expires.timeIntervalSince(now) <= Self.lifetime {
            return current.token
        }
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        let expires = issued + Int64(Self.lifetime)
        let token = try Self.make(key: key, issuedAt: issued, expiresAt: expires)
        cached.withLock { $0 = (token, Date(timeIntervalSince1970: TimeInterval(expires))) }
        return token
    }

    /// One signed token.
    static func make(key: AppStoreConnectKey, issuedAt: Int64, expiresAt: Int64) throws(AppStoreConnectError) -> String {
        let header = #"{"alg":"ES256","kid":"\#(key.keyID)","typ":"JWT"}"#
        let claims = #"{"iss":"\#(key.issuerID)","iat":\#(issuedAt),"exp":\#(expiresAt),"aud":"appstoreconnect-v1"}"#
        let signingInput = InviteToken.base64URL(Array(header.utf8)) + "." + InviteToken.base64URL(Array(claims.utf8))
        let signature: [UInt8]
        do {
            signature = try ES256Signer(privateKeyPEM: key.privateKeyPEM).sign(Array(signingInput.utf8))
        } catch {
            throw AppStoreConnectError.signing(error.description)
        }
        return signingInput + "." + InviteToken.base64URL(signature)
    }
}
