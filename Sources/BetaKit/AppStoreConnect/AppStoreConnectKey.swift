#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// An App Store Connect API key: its id, the team's issuer id and the P-256 private key (PKCS #8 PEM).
public struct AppStoreConnectKey: Sendable, Equatable {
    /// The key id (10 characters, as in AuthKey_ID.p8).
    public var keyID: String
    /// The issuer id (a UUID).
    public var issuerID: String
    /// The private key, PKCS #8 PEM. A secret: never printed or logged.
    var privateKeyPEM: String

    /// Checks and keeps a key. `path` names the file in errors.
    public init(pem bytes: [UInt8], path: String, keyID: String, issuerID: String) throws(AppStoreConnectError) {
        let keyID = keyID.trimmed
        guard (8 ... 20).contains(keyID.count), keyID.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw AppStoreConnectError.invalidKeyID(keyID)
        }
        let issuerID = issuerID.trimmed.lowercased()
        guard Self.isUUID(issuerID) else { throw AppStoreConnectError.invalidIssuerID(issuerID) }
        guard let der = Self.pkcs8DER(bytes) else { throw AppStoreConnectError.notPKCS8(path) }
        guard Self.isP256PKCS8(der) else {
            if (try? ASN1Element(parsing: der)) == nil { throw AppStoreConnectError.notPKCS8(path) }
            throw AppStoreConnectError.notP256(path)
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.privateKeyPEM = String(decoding: bytes, as: UTF8.self).trimmed + "\n"
    }

    /// A key as stored (already checked when it was connected).
    init(keyID: String, issuerID: String, privateKeyPEM: String) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.privateKeyPEM = privateKeyPEM
    }

    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// The DER inside the one `PRIVATE KEY` PEM block of `bytes`, or nil.
    static func pkcs8DER(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count < 64 << 10 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.firstRange(of: "-----BEGIN PRIVATE KEY-----"),
              let end = text[begin.upperBound...].firstRange(of: "-----END PRIVATE KEY-----") else { return nil }
        let body = text[begin.upperBound ..< end.lowerBound].filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: String(body)) else { return nil }
        return [UInt8](data)
    }

    /// Whether `der` is PrivateKeyInfo { version, AlgorithmIdentifier { id-ecPublicKey, prime256v1 }, key }.
    static func isP256PKCS8(_ der: [UInt8]) -> Bool {
        guard let info = try? ASN1Element(parsing: der), info.tag == .sequence, info.children.count >= 3,
              info.children[1].tag == .sequence, info.children[1].children.count == 2,
              let algorithm = try? info.children[1].children[0].objectIdentifier(),
              let curve = try? info.children[1].children[1].objectIdentifier() else { return false }
        return algorithm == "1.2.840.10045.2.1" && curve == "1.2.840.10045.3.1.7"
    }
}
