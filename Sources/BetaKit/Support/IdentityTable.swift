#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A one-row table holding a certificate (with its chain) and its key: the save, load and remove
/// that `SigningIdentityStore` (`signing_identity`) and `CodeIdentityStore` (`code_signing_identity`,
/// which also keeps the certificate's SHA-1) share.
struct IdentityTable: Sendable {
    /// The table's name.
    let name: String
    /// Whether the table has a `sha1` column.
    let keepsSHA1: Bool

    /// One stored identity, as the table holds it.
    struct Row: Sendable {
        var certificatePEM: String
        var privateKeyPEM: String
        var subject: String
        var sha1: String
        var expiresAt: Date
        var chainCount: Int
        var importedAt: Date
    }

    private var columns: [String] {
        ["certificate_pem", "private_key_pem", "subject"] + (keepsSHA1 ? ["sha1"] : []) + ["expires_at", "chain_count", "imported_at"]
    }

    /// Stores the identity in `home`, replacing any earlier one. `certificateDER` is the signing
    /// certificate, read for its subject, fingerprint and expiry; the PEM texts are kept as given
    /// (already checked to belong together by the caller, which has libcrypto).
    func save(in home: Home, certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int,
              now: Date) throws -> Row {
        let certificate: Certificate
        do { certificate = try Certificate(der: certificateDER) } catch {
            throw SigningIdentityError.unreadableCertificate(error.description)
        }
        let subject = certificate.subject.commonName ?? certificate.subject.description
        let sha1 = certificate.sha1Fingerprint.hex
        let stamp = Timestamp.string(now)
        let columns = self.columns
        var values: [SQLiteValue] = [.text(certificatePEM), .text(privateKeyPEM), .text(subject)]
        if keepsSHA1 { values.append(.text(sha1)) }
        values += [.text(Timestamp.string(certificate.notAfter)), .integer(Int64(chainCount)), .text(stamp)]
        let updates = columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let sql = "INSERT INTO \(name) (id, \(columns.joined(separator: ", "))) VALUES (1\(String(repeating: ", ?", count: columns.count))) "
            + "ON CONFLICT (id) DO UPDATE SET \(updates)"
        try home.store.write { db in try db.query(sql, values) }
        return Row(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, subject: subject, sha1: sha1,
                   expiresAt: certificate.notAfter, chainCount: chainCount, importedAt: Timestamp.date(stamp) ?? now)
    }

    /// The stored identity, if any.
    func load(_ db: SQLiteConnection) throws -> Row? {
        guard let row = try db.queryOne("SELECT \(columns.joined(separator: ", ")) FROM \(name) WHERE id = 1"),
              let certificate = row.string(0), let key = row.string(1) else { return nil }
        let next = keepsSHA1 ? 4 : 3
        return Row(certificatePEM: certificate, privateKeyPEM: key, subject: row.string(2) ?? "", sha1: keepsSHA1 ? row.string(3) ?? "" : "",
                   expiresAt: row.string(next).flatMap(Timestamp.date) ?? .distantPast, chainCount: Int(row.int(next + 1) ?? 0),
                   importedAt: row.string(next + 2).flatMap(Timestamp.date) ?? .distantPast)
    }

    /// Removes the stored identity from `home`; false when there was none.
    func remove(in home: Home) throws -> Bool {
        try home.store.write { db in
            try db.query("DELETE FROM \(name)")
            return db.changes > 0
        }
    }
}
