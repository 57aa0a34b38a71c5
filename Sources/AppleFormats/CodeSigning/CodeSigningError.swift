/// Why a Mach-O could not be signed.
public enum CodeSigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not a Mach-O betactl can sign.
    case unsupported(path: String, reason: String)
    /// The code is encrypted by the App Store.
    case encrypted(path: String)
    /// The CMS signature could not be made.
    case cmsFailed(path: String, reason: String)

    /// A sentence naming the file, the cause and the fix.
    public var description: String {
        switch self {
        case let .unsupported(path, reason):
            return "\(path) cannot be signed: \(reason); re-export the build from Xcode and sign that"
        case let .encrypted(path):
            return "\(path) is encrypted by the App Store (FairPlay) and cannot be re-signed: re-sign the exported build (the .ipa Xcode exports), not one downloaded from the App Store"
        case let .cmsFailed(path, reason):
            return "the CMS signature of \(path) could not be made: \(reason)"
        }
    }
}
