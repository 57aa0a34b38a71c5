#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The Apple distribution certificate and key builds are re-signed with, as the home keeps it.
public struct StoredCodeIdentity: Sendable, Equatable {
    /// The certificate, then its chain, as PEM.
    public var certificatePEM: String
    /// The private key, unencrypted PEM.
    public var privateKeyPEM: String
    /// The certificate's common name (or its whole subject).
    public var subject: String
    /// The certificate's SHA-1 fingerprint, hex, as profiles' certificate lists and Keychain show it.
    public var sha1: String
    /// When the certificate expires.
    public var expiresAt: Date
    /// How many chain certificates come with it.
    public var chainCount: Int
    /// When it was imported.
    public var importedAt: Date
}

/// The home's code-signing identity: at most one, replaced by each import. Kept in the database
/// (mode 0600), apart from the enrolment signing identity.
public struct CodeIdentityStore: Sendable {
    let home: Home

    /// The store of `home`.
    public init(home: Home) { self.home = home }

    /// Stores the identity, replacing any earlier one; `certificateDER` is the signing certificate.
    @discardableResult
    public func save(certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int,
                     now: Date) throws -> StoredCodeIdentity {
        let certificate: Certificate
        do { certificate = try Certificate(der: certificateDER) } catch {
            throw SigningIdentityError.unreadableCertificate(error.description)
        }
        let subject = certificate.subject.commonName ?? certificate.subject.description
        let stamp = Timestamp.string(now)
        try home.store.write { db in
            try db.query("""
                INSERT INTO code_signing_identity (id, certificate_pem, private_key_pem, subject, sha1, expires_at, chain_count, imported_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET certificate_pem = excluded.certificate_pem, private_key_pem = excluded.private_key_pem,
                    subject = excluded.subject, sha1 = excluded.sha1, expires_at = excluded.expires_at,
                    chain_count = excluded.chain_count, imported_at = excluded.imported_at
                """, [.text(certificatePEM), .text(privateKeyPEM), .text(subject), .text(certificate.sha1Fingerprint.hex),
                      .text(Timestamp.string(certificate.notAfter)), .integer(Int64(chainCount)), .text(stamp)])
        }
        return StoredCodeIdentity(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, subject: subject,
                                  sha1: certificate.sha1Fingerprint.hex, expiresAt: certificate.notAfter, chainCount: chainCount,
                                  importedAt: Timestamp.date(stamp) ?? now)
    }

    /// The stored identity, if any.
    public func current() throws -> StoredCodeIdentity? {
        try home.store.read { db in
            guard let row = try db.queryOne("""
                SELECT certificate_pem, private_key_pem, subject, sha1, expires_at, chain_count, imported_at FROM code_signing_identity WHERE id = 1
                """), let certificate = row.string(0), let key = row.string(1) else { return nil }
            return StoredCodeIdentity(certificatePEM: certificate, privateKeyPEM: key, subject: row.string(2) ?? "", sha1: row.string(3) ?? "",
                                      expiresAt: row.string(4).flatMap(Timestamp.date) ?? .distantPast, chainCount: Int(row.int(5) ?? 0),
                                      importedAt: row.string(6).flatMap(Timestamp.date) ?? .distantPast)
        }
    }

    /// Removes the stored identity; false when there was none.
    @discardableResult
    public func remove() throws -> Bool {
        try home.store.write { db in
            try db.query("DELETE FROM code_signing_identity")
            return db.changes > 0
        }
    }
}
