import AppleFormats

/// Why a build could not be re-signed.
public enum ResignError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The new profile does not allow an entitlement the app was signed with.
    case entitlementsNotAllowed(bundle: String, profile: String, mismatches: [String])
    /// The new profile's application identifier does not cover a bundle.
    case profileDoesNotCover(bundle: String, bundleID: String, profile: String)
    /// A bundle could not be read or written.
    case unreadableBundle(path: String, reason: String)
    /// Signing a Mach-O failed.
    case signing(CodeSigningError)
    /// A Mach-O's UUID changed while re-signing (it must never).
    case uuidChanged(path: String)
    /// A symbolic link in the bundle points outside it, which codesign refuses to seal.
    case linkOutsideBundle(path: String, target: String)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .entitlementsNotAllowed(bundle, profile, mismatches):
            return "\(bundle) cannot be re-signed with \"\(profile)\": \(mismatches.joined(separator: "; ")); use a profile whose App ID has those capabilities"
        case let .profileDoesNotCover(bundle, bundleID, profile):
            return "\(bundle) cannot be re-signed with \"\(profile)\": its application identifier does not cover the bundle id \(bundleID); use the profile made for \(bundleID) (or a wildcard one)"
        case let .unreadableBundle(path, reason):
            return "\(path) could not be re-signed: \(reason)"
        case let .signing(error):
            return error.description
        case let .linkOutsideBundle(path, target):
            return "\(path) is a symbolic link to \"\(target)\", outside its bundle, so the build cannot be signed: make it a relative link to a file inside the bundle (or copy the file in) and release the build again"
        case let .uuidChanged(path):
            return "\(path) changed its LC_UUID while being re-signed, so its dSYMs would no longer match; nothing was published"
        }
    }

    /// Entitlement and profile mismatches are the caller's input; the rest are failures.
    public var category: ErrorCategory {
        switch self {
        case .entitlementsNotAllowed, .profileDoesNotCover: .invalidInput
        default: .refused
        }
    }
}
