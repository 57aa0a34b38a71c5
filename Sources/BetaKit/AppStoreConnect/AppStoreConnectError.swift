import HTTPClient

/// Why talking to App Store Connect failed: each case is one sentence naming the device, bundle id
/// or profile concerned and what to do, never a raw dump of Apple's answer.
public enum AppStoreConnectError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// No key is stored.
    case notConnected
    /// The stored key file cannot be read.
    case damagedKeyFile(String)
    /// The key file is not a PKCS #8 PEM private key.
    case notPKCS8(String)
    /// The key is PKCS #8 but not an elliptic-curve P-256 key.
    case notP256(String)
    /// The key id is not the 10-character id App Store Connect shows.
    case invalidKeyID(String)
    /// The issuer id is not a UUID.
    case invalidIssuerID(String)
    /// The base URL is not an https URL.
    case invalidBaseURL(String)
    /// libcrypto could not sign the token.
    case signing(String)
    /// Apple answered 401: it does not know the key (or the issuer).
    case unauthorized(keyID: String, detail: String)
    /// Apple answered 403 for lack of a role.
    case forbidden(keyID: String, detail: String)
    /// The request never got an answer (network, TLS, timeout).
    case transport(HTTPClientError)
    /// Apple refused, with its own words, about `subject`.
    case refused(subject: String, status: Int, detail: String)
    /// Apple's answer could not be read.
    case unreadableAnswer(path: String, detail: String)
    /// Still rate limited after the retries.
    case rateLimited(retryAfter: String?)
    /// A bundle id Apple does not have.
    case unknownBundleID(String)
    /// No distribution certificate to sign the profile with, or several and none chosen.
    case certificate(String)
    /// The old profile was deleted but the new one could not be made.
    case profileCreateFailedAfterDelete(bundleID: String, deletedName: String, reason: String)
    /// A device given that the roster does not have.
    case unknownDevice(String)

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case .notConnected:
            return "no App Store Connect key is connected; connect one with `betactl apple connect --key AuthKey_ID.p8 --key-id ID --issuer-id UUID`"
        case let .damagedKeyFile(path):
            return "the stored App Store Connect key \(path) is damaged; run `betactl apple disconnect`, then `betactl apple connect` again"
        case let .notPKCS8(path):
            return "\(path) is not a PKCS #8 private key (-----BEGIN PRIVATE KEY-----); give the AuthKey_….p8 file App Store Connect let you download once"
        case let .notP256(path):
            return "\(path) is a private key but not an elliptic-curve P-256 key; App Store Connect keys are P-256, so give the AuthKey_….p8 file from Users and Access → Integrations"
        case let .invalidKeyID(value):
            return "\"\(value)\" is not an App Store Connect key id; give the 10-character id shown next to the key (and in its file name, AuthKey_ID.p8)"
        case let .invalidIssuerID(value):
            return "\"\(value)\" is not an issuer id; give the UUID shown above the key list in App Store Connect (Users and Access → Integrations)"
        case let .invalidBaseURL(value):
            return "\"\(value)\" is not an https:// base URL; leave --base-url out to use Apple's"
        case let .signing(reason):
            return "the App Store Connect token could not be signed (\(reason)); install OpenSSL (Debian and Ubuntu: libssl3)"
        case let .unauthorized(keyID, detail):
            return "App Store Connect does not accept key \(keyID) (401: \(detail)); check the key id and issuer id, and that the key was not revoked"
        case let .forbidden(keyID, detail):
            return "key \(keyID) lacks the role this needs (403: \(detail)); give the key the Admin or App Manager role in Users and Access → Integrations, or make a new one"
        case let .transport(error):
            return "App Store Connect could not be reached: \(error.description)"
        case let .refused(subject, status, detail):
            return "App Store Connect refused \(subject) (\(status): \(detail))"
        case let .unreadableAnswer(path, detail):
            return "App Store Connect's answer to \(path) could not be read (\(detail)); try again, and report it if it persists"
        case let .rateLimited(retryAfter):
            let wait = retryAfter.map { " (Apple asks to wait \($0) s)" } ?? ""
            return "App Store Connect's hourly request limit is used up\(wait); try again later"
        case let .unknownBundleID(identifier):
            return "App Store Connect has no bundle id \(identifier); register it in Certificates, Identifiers & Profiles, or check the spelling (identifiers are compared exactly)"
        case let .certificate(reason):
            return reason
        case let .profileCreateFailedAfterDelete(bundleID, deletedName, reason):
            return "the old profile \"\(deletedName)\" for \(bundleID) was deleted but the new one could not be created (\(reason)); \(bundleID) has no betactl ad hoc profile now, so run `betactl apple profile \(bundleID)` again to retry"
        case let .unknownDevice(udid):
            return "\(udid) is not in the roster; add it first with `betactl add-device`, then register it"
        }
    }

    /// Bad keys and ids are invalid input; Apple's refusals are refusals; the rest failures.
    public var category: ErrorCategory {
        switch self {
        case .notPKCS8, .notP256, .invalidKeyID, .invalidIssuerID, .invalidBaseURL: .invalidInput
        case .notConnected, .damagedKeyFile, .unauthorized, .forbidden, .refused, .unknownBundleID, .certificate, .unknownDevice, .rateLimited: .refused
        default: .failed
        }
    }
}
