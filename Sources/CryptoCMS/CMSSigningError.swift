/// Why a signing identity could not be read or a signature made.
public enum CMSSigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcrypto could not be loaded.
    case libraryUnavailable(String)
    /// The certificate file holds no certificate in PEM or DER.
    case noCertificate
    /// The private key could not be read (or decrypted).
    case unreadableKey(String)
    /// The key belongs to none of the certificates given.
    case keyMatchesNoCertificate(certificates: Int)
    /// The PKCS #12 file could not be read or opened with the password.
    case unreadablePKCS12(String)
    /// The PKCS #12 file opened but holds no certificate with its key.
    case incompletePKCS12
    /// libcrypto refused to sign.
    case signingFailed(String)

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .libraryUnavailable(reason):
            return "libcrypto (OpenSSL) could not be loaded (\(reason)); install it (Debian and Ubuntu: apt install libssl3)"
        case .noCertificate:
            return "the certificate file holds no certificate; give the signing certificate as PEM (-----BEGIN CERTIFICATE-----), DER or a .p12"
        case let .unreadableKey(reason):
            return "the private key could not be read (\(reason)); give the key as PEM, and its passphrase when it is encrypted"
        case let .keyMatchesNoCertificate(count):
            return "the private key belongs to none of the \(count) certificate\(count == 1 ? "" : "s") given; give the certificate that was issued for this key"
        case let .unreadablePKCS12(reason):
            return "the .p12 file could not be opened (\(reason)); check its password, or export the identity again"
        case .incompletePKCS12:
            return "the .p12 file holds no certificate together with its private key; export the identity (certificate and key) again"
        case let .signingFailed(reason):
            return "libcrypto could not sign with this identity (\(reason)); check that the certificate and the private key belong together"
        }
    }
}
