/// One reason iOS would refuse a build's code signature, naming the file that breaks it.
///
/// Paths are as the input holds them (`Payload/App.app/Info.plist`), so a refusal points at the
/// exact file; every message ends with what to do about it.
public struct CodeSignatureProblem: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Cause: Sendable, Equatable {
        /// The Mach-O has no LC_CODE_SIGNATURE.
        case unsigned
        /// The code is encrypted by the App Store (FairPlay, `cryptid` != 0).
        case encrypted
        /// The signature's structure is broken.
        case malformed(String)
        /// A code page's hash differs from the CodeDirectory's (the binary changed after signing).
        case codePageChanged(architecture: String, page: Int)
        /// A file or blob bound by a special slot changed after signing (`binary` names the executable).
        case sealedByExecutableChanged(binary: String, what: String)
        /// A bundle file the executable's signature should seal (Info.plist, CodeResources) is not
        /// bound: the executable was signed outside its bundle.
        case notSealedByExecutable(binary: String)
        /// The executable that Info.plist's CFBundleExecutable names is missing.
        case executableMissing
        /// A file bound by a special slot is missing.
        case sealedByExecutableMissing(binary: String, what: String)
        /// A resource sealed in `_CodeSignature/CodeResources` changed after signing.
        case resourceChanged
        /// A resource sealed in `_CodeSignature/CodeResources` is missing.
        case resourceMissing
        /// A file that `_CodeSignature/CodeResources` does not seal was added after signing.
        case resourceAdded
        /// A sealed symbolic link points somewhere else, or is no longer a link.
        case symbolicLinkChanged(expected: String)
        /// A symbolic link points outside its bundle (an absolute path, or `..` past the root).
        case symbolicLinkOutsideBundle(target: String)
        /// Nested code's CDHash is not the one its parent bundle sealed.
        case nestedCodeChanged
        /// The bundle has no `_CodeSignature/CodeResources`.
        case resourcesNotSealed
        /// The CMS signature does not verify over the CodeDirectory (either was changed).
        case signatureInvalid(String)
        /// The signature has no CMS blob: an ad hoc signature, which iOS refuses for apps.
        case adHocSigned
        /// An alternate CodeDirectory is not among the CDHashes the CMS signature signed.
        case alternateDirectoryUnsigned(slot: UInt32)
        /// The signing certificate is not one of the profile's DeveloperCertificates.
        case signerNotInProfile(signer: String, profile: String)
        /// The signature uses a digest betactl cannot compute.
        case unsupportedHash(String)
    }

    /// The file the problem is about.
    public var path: String
    /// What is wrong.
    public var cause: Cause

    /// Creates a problem.
    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    static let reexport = "re-export the build from Xcode"

    /// A sentence naming the file, the cause and the fix.
    public var description: String {
        switch cause {
        case .unsigned:
            return "\(path) is not code signed, so iOS will not run it: \(Self.reexport) with a distribution certificate"
        case .encrypted:
            return "\(path) is encrypted by the App Store (FairPlay), so it cannot be installed or re-signed: re-sign the exported build (the .ipa Xcode exports), not one downloaded from the App Store"
        case let .malformed(detail):
            return "\(path) has a malformed code signature (\(detail)): \(Self.reexport)"
        case let .codePageChanged(architecture, page):
            return "\(path) changed after signing (the \(architecture) code page \(page) no longer matches its hash): \(Self.reexport)"
        case let .sealedByExecutableChanged(binary, what):
            if binary != path {
                return "\(path) changed after signing (the signature of \(binary) seals it): \(Self.reexport)"
            }
            return "the \(what) in the signature of \(path) changed after signing: \(Self.reexport)"
        case let .notSealedByExecutable(binary):
            return "\(path) is not sealed by the signature of \(binary) (the executable was signed outside its bundle), so iOS will refuse it: \(Self.reexport)"
        case .executableMissing:
            return "\(path), the executable Info.plist names in CFBundleExecutable, is missing: \(Self.reexport)"
        case let .sealedByExecutableMissing(binary, _):
            return "\(path) is missing, but the signature of \(binary) seals it: \(Self.reexport)"
        case .resourceChanged:
            return "\(path) changed after signing: \(Self.reexport)"
        case .resourceMissing:
            return "\(path) is missing, but the bundle's signature seals it: \(Self.reexport)"
        case .resourceAdded:
            return "\(path) was added after signing, so the bundle's signature does not seal it: remove it or \(Self.reexport)"
        case let .symbolicLinkChanged(expected):
            return "\(path) changed after signing (it was a symbolic link to \"\(expected)\"): \(Self.reexport)"
        case let .symbolicLinkOutsideBundle(target):
            return "\(path) is a symbolic link to \"\(target)\", outside its bundle, which iOS refuses: make it a relative link to a file inside the bundle (or copy the file in) and \(Self.reexport)"
        case .nestedCodeChanged:
            return "\(path) changed after signing (its CDHash is not the one the enclosing bundle sealed): \(Self.reexport)"
        case .resourcesNotSealed:
            return "\(path) has no _CodeSignature/CodeResources, so its resources are not sealed and iOS will refuse it: \(Self.reexport)"
        case let .signatureInvalid(reason):
            return "the CMS signature of \(path) does not verify over its CodeDirectory (\(reason)); the CodeDirectory or the signature changed after signing: \(Self.reexport)"
        case .adHocSigned:
            return "\(path) is ad hoc signed (no certificate), which iOS refuses on devices: \(Self.reexport) with a distribution certificate"
        case let .alternateDirectoryUnsigned(slot):
            return "the CodeDirectory in slot 0x\(String(slot, radix: 16)) of \(path) is not one the CMS signature signed (it changed after signing): \(Self.reexport)"
        case let .signerNotInProfile(signer, profile):
            return "\(path) is signed by \(signer), which is not one of the certificates of the profile \(profile), so iOS will refuse it: export the build with a profile that lists that certificate"
        case let .unsupportedHash(name):
            return "\(path) is signed with \(name) hashes, which betactl cannot check: \(Self.reexport)"
        }
    }
}
