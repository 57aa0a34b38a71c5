#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit

/// JSON shapes of device enrolment, printed by the CLI's `--json` and answered by the API. Field
/// names are part of betactl's interface: add fields, never rename them.
public enum EnrollmentJSON {
    /// The identity enrolment profiles are signed with.
    public struct SigningIdentityJSON: Encodable, Sendable {
        /// The signing certificate's common name (or whole subject).
        public var subject: String
        /// When the certificate expires (ISO 8601).
        public var expires: String
        /// Whether it has expired.
        public var expired: Bool
        /// How many chain certificates are sent along.
        public var chainCertificates: Int
        /// When it was imported (ISO 8601).
        public var imported: String
        /// Whether this process can sign with it (libcrypto loads); profiles are served unsigned otherwise.
        public var canSign: Bool
    }

    /// The JSON of a stored identity.
    public static func signingIdentity(_ identity: StoredSigningIdentity, canSign: Bool, now: Date) -> SigningIdentityJSON {
        SigningIdentityJSON(subject: identity.subject, expires: Timestamp.string(identity.expiresAt), expired: identity.expiresAt <= now,
                            chainCertificates: identity.chainCount, imported: Timestamp.string(identity.importedAt), canSign: canSign)
    }
}
