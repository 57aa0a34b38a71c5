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
    static let table = IdentityTable(name: "code_signing_identity", keepsSHA1: true)
    let home: Home

    /// The store of `home`.
    public init(home: Home) { self.home = home }

    /// Stores the identity, replacing any earlier one; `certificateDER` is the signing certificate.
    @discardableResult
    public func save(certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int,
                     now: Date) throws -> StoredCodeIdentity {
        Self.identity(try Self.table.save(in: home, certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM,
                                          certificateDER: certificateDER, chainCount: chainCount, now: now))
    }

    /// The stored identity, if any.
    public func current() throws -> StoredCodeIdentity? {
        try home.store.read { db in try Self.table.load(db).map(Self.identity) }
    }

    /// Removes the stored identity; false when there was none.
    @discardableResult
    public func remove() throws -> Bool { try Self.table.remove(in: home) }

    static func identity(_ row: IdentityTable.Row) -> StoredCodeIdentity {
        StoredCodeIdentity(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM, subject: row.subject, sha1: row.sha1,
                           expiresAt: row.expiresAt, chainCount: row.chainCount, importedAt: row.importedAt)
    }
}
