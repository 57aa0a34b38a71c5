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

    /// The columns `load` reads, named with the table (`signing_identity.subject`) so an error
    /// says which store is damaged.
    var selectColumns: SQLColumns { SQLColumns(columns.map { "\(name).\($0)" }) }

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
        let columns = selectColumns
        guard let found = try db.queryOne("SELECT \(columns.list) FROM \(name) WHERE id = 1") else { return nil }
        let row = columns.reader(found)
        return Row(certificatePEM: try row.text("\(name).certificate_pem"), privateKeyPEM: try row.text("\(name).private_key_pem"),
                   subject: try row.text("\(name).subject"), sha1: keepsSHA1 ? try row.text("\(name).sha1") : "",
                   expiresAt: try row.date("\(name).expires_at"), chainCount: Int(try row.int("\(name).chain_count")),
                   importedAt: try row.date("\(name).imported_at"))
    }

    /// Removes the stored identity from `home`; false when there was none.
    func remove(in home: Home) throws -> Bool {
        try home.store.write { db in
            try db.query("DELETE FROM \(name)")
            return db.changes > 0
        }
    }
}
