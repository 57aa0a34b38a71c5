/// Why CMS SignedData did not verify.
public enum CMSVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcrypto could not be loaded, so nothing could be verified.
    case libraryUnavailable(String)
    /// The bytes are not a CMS ContentInfo libcrypto can read.
    case unreadable(String)
    /// A signature does not match the content (the content or the signature was changed), or a
    /// signer's certificate is not in the envelope.
    case badSignature(String)
    /// The envelope is not signed by anyone.
    case noSigner
    /// A signer's certificate does not chain to a trusted certificate.
    case untrustedSigner(subject: String, reason: String)
    /// A trust anchor handed to the verifier is not a certificate.
    case unreadableAnchor

    /// A sentence naming what is wrong.
    public var description: String {
        switch self {
        case let .libraryUnavailable(reason):
            return "libcrypto (OpenSSL) could not be loaded, so the signature could not be checked; install it (Debian and Ubuntu: apt install libssl3). The loader said: \(reason)"
        case let .unreadable(reason):
            return "it is not CMS signed data libcrypto can read (\(reason))"
        case let .badSignature(reason):
            return "its signature does not match its content (\(reason)): it was changed after signing, or signed by someone else"
        case .noSigner:
            return "it carries no signature"
        case let .untrustedSigner(subject, reason):
            return "its signer \(subject) does not chain to a trusted certificate (\(reason))"
        case .unreadableAnchor:
            return "a trusted certificate given to the verifier is not a DER certificate"
        }
    }
}
