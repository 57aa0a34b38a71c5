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

/// Why a signing identity could not be stored or used.
public enum SigningIdentityError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The signing certificate is not a readable X.509 certificate.
    case unreadableCertificate(String)
    /// The stored identity could not sign (libcrypto's reason); `command` is the one that manages it
    /// (`signing-identity`, `code-identity`).
    case cannotSign(String, command: String)

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .unreadableCertificate(reason):
            return "the signing certificate could not be read (\(reason)); give the certificate issued for the key, as PEM, DER or in a .p12"
        case let .cannotSign(reason, command):
            return "\(reason); check the identity with `betactl \(command) show`, and import it again with `betactl \(command) import` if it is damaged"
        }
    }

    /// A certificate that cannot be read is invalid input; an identity that cannot sign is a failure.
    public var category: ErrorCategory {
        switch self {
        case .unreadableCertificate: .invalidInput
        case .cannotSign: .failed
        }
    }
}

/// The home's signing identity: at most one, replaced by each import.
public struct SigningIdentityStore: Sendable {
    static let table = IdentityTable(name: "signing_identity", keepsSHA1: false)
    let home: Home

    /// The store of `home`.
    public init(home: Home) { self.home = home }

    /// Stores the identity, replacing any earlier one. `certificateDER` is the signing certificate,
    /// read for its subject and expiry; the PEM texts are kept as given (already checked to belong
    /// together by the caller, which has libcrypto).
    @discardableResult
    public func save(certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int,
                     now: Date) throws -> StoredSigningIdentity {
        Self.identity(try Self.table.save(in: home, certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM,
                                          certificateDER: certificateDER, chainCount: chainCount, now: now))
    }

    /// The stored identity, if any.
    public func current() throws -> StoredSigningIdentity? {
        try home.store.read { db in try Self.load(db) }
    }

    /// Removes the stored identity; false when there was none.
    @discardableResult
    public func remove() throws -> Bool { try Self.table.remove(in: home) }

    static func load(_ db: SQLiteConnection) throws -> StoredSigningIdentity? {
        try table.load(db).map(identity)
    }

    static func identity(_ row: IdentityTable.Row) -> StoredSigningIdentity {
        StoredSigningIdentity(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM, subject: row.subject,
                              expiresAt: row.expiresAt, chainCount: row.chainCount, importedAt: row.importedAt)
    }
}
