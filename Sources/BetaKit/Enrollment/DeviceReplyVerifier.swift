import AppleFormats
import CryptoCMS

/// Checks that a device's enrolment reply was signed by a device identity Apple issued: the CMS
/// signature matches the content, and the signer's certificate chains through exactly Apple
/// iPhone Device CA -> Apple iPhone Certification Authority -> Apple Root CA, each pinned by its
/// SHA-256 fingerprint. Validity dates are not checked (see `AppleDeviceCertificates`).
public enum DeviceReplyVerifier {
    static let verifier = CMSSignatureVerifier(trusted: AppleDeviceCertificates.rootCAPEM,
                                               intermediates: AppleDeviceCertificates.deviceCAPEM + "\n" + AppleDeviceCertificates.iPhoneCAPEM)

    /// The signed content of `reply` (the attribute plist's bytes) when the reply verifies.
    public static func verify(_ reply: [UInt8]) throws(DeviceReplyVerificationError) -> [UInt8] {
        // The anchor is compiled in; the pin makes sure it is the one meant, whatever edits the source sees.
        let anchors: [[UInt8]]
        do { anchors = try CMSSignatureVerifier.derCertificates(pem: AppleDeviceCertificates.rootCAPEM) } catch {
            throw DeviceReplyVerificationError.signature(error)
        }
        guard anchors.count == 1, SHA256.hash(anchors[0]).hex == AppleDeviceCertificates.rootCASHA256 else {
            throw DeviceReplyVerificationError.anchorMismatch
        }
        let verified: CMSVerifiedContent
        do { verified = try verifier.verify(reply) } catch { throw DeviceReplyVerificationError.signature(error) }
        guard verified.signerChains.count == 1, let chain = verified.signerChains.first else {
            throw DeviceReplyVerificationError.signerCount(verified.signerChains.count)
        }
        let above = chain.dropFirst().map { SHA256.hash($0).hex }
        guard Array(above) == AppleDeviceCertificates.chainSHA256 else { throw DeviceReplyVerificationError.notAppleDeviceChain }
        return verified.content
    }
}

/// Why a reply's signature was not accepted.
public enum DeviceReplyVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The signature did not verify, or its signer does not chain to Apple Root CA.
    case signature(CMSVerificationError)
    /// More or fewer than one signer.
    case signerCount(Int)
    /// The signer chains to Apple Root CA but not through Apple's device CA (a developer or other certificate).
    case notAppleDeviceChain
    /// The compiled-in Apple Root CA does not match its pinned fingerprint.
    case anchorMismatch

    /// A sentence naming what is wrong.
    public var description: String {
        switch self {
        case let .signature(error):
            if case .libraryUnavailable = error { return "the reply could not be verified: \(error)" }
            return "the reply is not signed by an Apple device: \(error)"
        case let .signerCount(count):
            return "the reply has \(count) signers; a device signs its reply once"
        case .notAppleDeviceChain:
            return "the reply is signed by a certificate Apple issued, but not a device identity under Apple iPhone Device CA"
        case .anchorMismatch:
            return "the built-in Apple Root CA does not match its pinned SHA-256 fingerprint; this betactl build is damaged, reinstall it"
        }
    }
}
