#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What `release` tolerates beyond the defaults.
public struct ReleasePolicy: Sendable, Equatable {
    /// Profile types accepted; ad hoc always, development or enterprise with `--allow-profile-type`.
    public var allowedProfileTypes: Set<ProfileType>
    /// Whether executables without dSYMs are accepted (they are still recorded).
    public var allowMissingSymbols: Bool
    /// Whether a simulator build may be released without a valid signature (`--allow-unsigned`);
    /// a device build is refused with it.
    public var allowUnsigned: Bool

    /// The defaults: ad hoc only, symbols required, signatures verified.
    public init(allowedProfileTypes: Set<ProfileType> = [.adHoc], allowMissingSymbols: Bool = false, allowUnsigned: Bool = false) {
        self.allowedProfileTypes = allowedProfileTypes.union([.adHoc])
        self.allowMissingSymbols = allowMissingSymbols
        self.allowUnsigned = allowUnsigned
    }
}

/// One reason a build is refused.
public enum ReleaseRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The input is not an app build (a bare dSYM).
    case notAnApp(kind: ArtifactKind)
    /// Something inside the bundle is broken (missing executable, unreadable profile…).
    case bundleProblem(IngestProblem)
    /// The profile's type is not allowed.
    case profileType(bundle: String, profileName: String, type: ProfileType)
    /// The profile has expired.
    case profileExpired(bundle: String, profileName: String, expiredOn: Date)
    /// The profile's application identifier does not cover the bundle id.
    case bundleIDNotCovered(bundle: String, bundleID: String, applicationIdentifier: String?, profileName: String)
    /// An executable is not code signed.
    case unsigned(executable: String)
    /// An executable was signed with an entitlement the profile does not allow.
    case entitlement(executable: String, EntitlementMismatch)
    /// Slices without matching dSYMs.
    case missingSymbols([MissingSymbols])
    /// The code signature would make iOS refuse the install.
    case codeSignature(CodeSignatureProblem)
    /// `--allow-unsigned` was given for a build that is not for the simulator.
    case unsignedOnlyForSimulator(bundle: String)

    /// A sentence naming the values and the fix.
    public var description: String {
        switch self {
        case let .notAnApp(kind):
            let what = switch kind {
            case .dsym: "a dSYM, not an app build"
            case .ipa: "an .ipa that holds no app bundle"
            case .xcarchive: "an .xcarchive that holds no app bundle"
            }
            return "the input is \(what); pass an .ipa or .xcarchive (use add-symbols for dSYMs)"
        case let .bundleProblem(problem):
            return problem.description
        case let .profileType(bundle, name, type):
            return "\(bundle): the embedded profile \"\(name)\" is \(type.withArticle) profile, not ad hoc; export with the Ad Hoc method, or pass --allow-profile-type \(type.rawValue) if testers' devices are in it"
        case let .profileExpired(bundle, name, date):
            return "\(bundle): the embedded profile \"\(name)\" expired on \(ProfileRosterCheck.day(date)); regenerate it, re-export the build and release again"
        case let .bundleIDNotCovered(bundle, bundleID, identifier, name):
            return "\(bundle): the embedded profile \"\(name)\" is for \(identifier ?? "no application identifier"), which does not cover the bundle id \(bundleID); sign with the profile made for \(bundleID)"
        case let .unsigned(executable):
            return "\(executable) is not code signed; iOS refuses unsigned executables, so export the build from Xcode again"
        case let .entitlement(executable, mismatch):
            return "\(executable): \(mismatch)"
        case let .codeSignature(problem):
            return problem.description
        case let .unsignedOnlyForSimulator(bundle):
            return "\(bundle) is a device build: --allow-unsigned is only for simulator builds, since iOS devices refuse a build whose signature does not verify; release the build Xcode exported with its signature intact"
        case let .missingSymbols(missing):
            return "no dSYM matches \(missing.count) executable slice\(missing.count == 1 ? "" : "s") (\(missing.map(\.description).joined(separator: "; "))); pass the build's dSYMs with --dsym (or release the .xcarchive), or --allow-missing-symbols to release without them"
        }
    }
}

/// A reason to warn that does not stop the release.
public enum ReleaseWarning: Sendable, Equatable, CustomStringConvertible {
    /// Active roster devices the profile lacks.
    case devicesMissingFromProfile([Device])
    /// Slices released without symbols under --allow-missing-symbols.
    case releasedWithoutSymbols([MissingSymbols])
    /// Framework slices without symbols (not required).
    case frameworksWithoutSymbols([MissingSymbols])
    /// The profile expires soon.
    case profileExpiresSoon(profileName: String, days: Int)
    /// A non-fatal problem inside the bundle.
    case bundleWarning(IngestProblem)
    /// A simulator build released under `--allow-unsigned` without checking its signature.
    case releasedUnsigned(bundle: String)

    /// A sentence naming the values.
    public var description: String {
        switch self {
        case let .devicesMissingFromProfile(devices):
            let byTester = Dictionary(grouping: devices) { $0.testerName ?? "(no tester)" }
            let parts = byTester.keys.sorted().map { "\($0): \((byTester[$0] ?? []).map(\.identifier.value).joined(separator: ", "))" }
            return "\(devices.count) active device\(devices.count == 1 ? " is" : "s are") not in the profile and cannot install this build (\(parts.joined(separator: "; "))); regenerate the profile with every registered device"
        case let .releasedWithoutSymbols(missing):
            return "released without symbols for \(missing.map(\.description).joined(separator: "; ")); crashes in them cannot be symbolicated until add-symbols is given their dSYMs"
        case let .frameworksWithoutSymbols(missing):
            return "no dSYM for framework slice\(missing.count == 1 ? "" : "s") \(missing.map(\.description).joined(separator: "; ")); crashes inside them will show addresses only"
        case let .profileExpiresSoon(name, days):
            return "the profile \"\(name)\" expires in \(days) day\(days == 1 ? "" : "s"); testers cannot launch the app after that"
        case let .bundleWarning(problem):
            return problem.description
        case let .releasedUnsigned(bundle):
            return "\(bundle) is a simulator build released with --allow-unsigned: its code signature and profile were not checked, and only simulators can run it"
        }
    }
}

/// The outcome of validating a build: every refusal at once, warnings, and what lacks symbols.
public struct ReleaseValidation: Sendable, Equatable {
    /// Why the build cannot be released; empty when it can.
    public var refusals: [ReleaseRefusal]
    /// Things to tell the user anyway.
    public var warnings: [ReleaseWarning]
    /// Required slices without symbols (recorded even when allowed).
    public var missingSymbols: [MissingSymbols]

    /// Whether the build may be published.
    public var isAccepted: Bool { refusals.isEmpty }
}
