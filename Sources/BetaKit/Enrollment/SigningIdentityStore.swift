#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The identity enrolment profiles are signed with, as the home keeps it.
public struct StoredSigningIdentity: Sendable, Equatable {
    /// The signing certificate, then its chain, as PEM.
    public var certificatePEM: String
    /// The private key, unencrypted PEM.
    public var privateKeyPEM: String
    /// The signing certificate's common name (or its whole subject when it has none).
    public var subject: String
    /// When the signing certificate expires.
    public var expiresAt: Date
    /// How many chain certificates are sent along.
    public var chainCount: Int
    /// When it was imported.
    public var importedAt: Date
}

/// Why a signing identity could not be stored.
public enum SigningIdentityError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The signing certificate is not a readable X.509 certificate.
    case unreadableCertificate(String)

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .unreadableCertificate(reason):
            return "the signing certificate could not be read (\(reason)); give the certificate issued for the key, as PEM, DER or in a .p12"
        }
    }

    /// Always invalid input.
    public var category: ErrorCategory { .invalidInput }
}

/// The home's signing identity: at most one, replaced by each import.
public struct SigningIdentityStore: Sendable {
    let home: Home

    /// The store of `home`.
    public init(home: Home) { self.home = home }

    /// Stores the identity, replacing any earlier one. `certificateDER` is the signing certificate,
    /// read for its subject and expiry; the PEM texts are kept as given (already checked to belong
    /// together by the caller, which has libcrypto).
    @discardableResult
    public func save(certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int,
                     now: Date) throws -> StoredSigningIdentity {
        let certificate: Certificate
        do { certificate = try Certificate(der: certificateDER) } catch {
            throw SigningIdentityError.unreadableCertificate(error.description)
        }
        let subject = certificate.subject.commonName ?? certificate.subject.description
        let stamp = Timestamp.string(now)
        try home.store.write { db in
            try db.query("""
                INSERT INTO signing_identity (id, certificate_pem, private_key_pem, subject, expires_at, chain_count, imported_at)
                VALUES (1, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET certificate_pem = excluded.certificate_pem, private_key_pem = excluded.private_key_pem,
                    subject = excluded.subject, expires_at = excluded.expires_at, chain_count = excluded.chain_count,
                    imported_at = excluded.imported_at
                """, [.text(certificatePEM), .text(privateKeyPEM), .text(subject), .text(Timestamp.string(certificate.notAfter)),
                      .integer(Int64(chainCount)), .text(stamp)])
        }
        return StoredSigningIdentity(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, subject: subject,
                                     expiresAt: certificate.notAfter, chainCount: chainCount, importedAt: Timestamp.date(stamp) ?? now)
    }

    /// The stored identity, if any.
    public func current() throws -> StoredSigningIdentity? {
        try home.store.read { db in try Self.load(db) }
    }

    /// Removes the stored identity; false when there was none.
    @discardableResult
    public func remove() throws -> Bool {
        try home.store.write { db in
            try db.query("DELETE FROM signing_identity")
            return db.changes > 0
        }
    }

    static func load(_ db: SQLiteConnection) throws -> StoredSigningIdentity? {
        guard let row = try db.queryOne("SELECT certificate_pem, private_key_pem, subject, expires_at, chain_count, imported_at FROM signing_identity WHERE id = 1"),
              let certificate = row.string(0), let key = row.string(1) else { return nil }
        return StoredSigningIdentity(certificatePEM: certificate, privateKeyPEM: key, subject: row.string(2) ?? "",
                                     expiresAt: row.string(3).flatMap(Timestamp.date) ?? .distantPast, chainCount: Int(row.int(4) ?? 0),
                                     importedAt: row.string(5).flatMap(Timestamp.date) ?? .distantPast)
    }
}
