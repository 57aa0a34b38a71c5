#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Decides whether a build may be released. Pure: everything it needs is passed in.
public enum ReleaseValidator {
    /// Validates `build` given the symbols available (from the build, `--dsym` inputs and the archive),
    /// the roster's devices and the policy. Collects every refusal instead of stopping at the first.
    public static func validate(build: IngestedArtifact, availableSymbols: Set<SymbolKey>, devices: [Device],
                                policy: ReleasePolicy = ReleasePolicy(), now: Date, warningDays: Int = 14) -> ReleaseValidation {
        guard let app = build.app else {
            return ReleaseValidation(refusals: [.notAnApp(kind: build.kind)], warnings: [], missingSymbols: [])
        }
        let unsignedSimulatorBuild = policy.allowUnsigned && app.isSimulatorBuild
        // A simulator build under --allow-unsigned needs neither a signature nor a profile.
        var refusals: [ReleaseRefusal] = app.problems.filter { !(unsignedSimulatorBuild && $0.isAboutTheProfile) }.map { .bundleProblem($0) }
        var warnings: [ReleaseWarning] = app.warnings.map { .bundleWarning($0) }
        if unsignedSimulatorBuild {
            warnings.append(.releasedUnsigned(bundle: app.bundlePath))
        } else {
            if policy.allowUnsigned { refusals.append(.unsignedOnlyForSimulator(bundle: app.bundlePath)) }
            refusals += signatureRefusals(app)
        }
        var checkedProfiles = Set<String>()
        for executable in app.executables where executable.kind != .framework {
            let bundle = executable.bundlePath
            guard let profile = executable.profile else { continue }  // a missing profile is already a bundle problem
            if checkedProfiles.insert("\(bundle)|\(profile.uuid)").inserted {
                if !policy.allowedProfileTypes.contains(profile.type) {
                    refusals.append(.profileType(bundle: bundle, profileName: profile.name, type: profile.type))
                }
                if profile.isExpired(at: now) {
                    refusals.append(.profileExpired(bundle: bundle, profileName: profile.name, expiredOn: profile.expirationDate))
                } else {
                    let days = Int((profile.expirationDate.timeIntervalSince(now) / 86400).rounded(.down))
                    if days < warningDays, !warnings.contains(.profileExpiresSoon(profileName: profile.name, days: days)) {
                        warnings.append(.profileExpiresSoon(profileName: profile.name, days: days))
                    }
                }
                if let bundleID = executable.bundleIdentifier, !profile.covers(bundleID: bundleID) {
                    refusals.append(.bundleIDNotCovered(bundle: bundle, bundleID: bundleID, applicationIdentifier: profile.applicationIdentifier, profileName: profile.name))
                }
            }
            if !unsignedSimulatorBuild { refusals += entitlementRefusals(executable, profile: profile) }
        }
        // Symbols: every slice of the app, its extensions and watch apps needs a dSYM.
        var missing: [MissingSymbols] = []
        var frameworkMissing: [MissingSymbols] = []
        for executable in app.executables {
            for slice in executable.slices {
                guard let key = slice.symbolKey, !availableSymbols.contains(key) else { continue }
                let entry = MissingSymbols(executablePath: executable.path, key: key)
                if executable.kind == .framework { frameworkMissing.append(entry) } else { missing.append(entry) }
            }
        }
        if !missing.isEmpty {
            if policy.allowMissingSymbols { warnings.append(.releasedWithoutSymbols(missing)) } else { refusals.append(.missingSymbols(missing)) }
        }
        if !frameworkMissing.isEmpty { warnings.append(.frameworksWithoutSymbols(frameworkMissing)) }
        if let profile = app.profile, !profile.provisionsAllDevices {
            let included = Set(profile.provisionedDeviceIdentifiers)
            let absent = devices.filter { $0.status == .active && !included.contains($0.identifier) }
            if !absent.isEmpty { warnings.insert(.devicesMissingFromProfile(absent), at: 0) }
        }
        return ReleaseValidation(refusals: refusals, warnings: warnings, missingSymbols: missing)
    }

    /// The code-signature problems iOS would refuse the build for, except those the bundle walk
    /// and the entitlement check already report (a missing or unsigned executable).
    public static func signatureRefusals(_ app: IngestedApp) -> [ReleaseRefusal] {
        guard let signature = app.signature else { return [] }
        return signature.problems.filter { $0.cause != .unsigned && $0.cause != .executableMissing }.map { .codeSignature($0) }
    }

    /// Entitlement mismatches of one executable; slices signed identically are reported once.
    public static func entitlementRefusals(_ executable: IngestedExecutable, profile: ProvisioningProfile) -> [ReleaseRefusal] {
        var refusals: [ReleaseRefusal] = []
        var seen: [[String: PlistValue]] = []
        for slice in executable.slices {
            guard slice.signingIdentifier != nil else {
                let unsigned = ReleaseRefusal.unsigned(executable: executable.path)
                if !refusals.contains(unsigned) { refusals.append(unsigned) }
                continue
            }
            let entitlements = slice.entitlements ?? [:]
            guard !seen.contains(entitlements) else { continue }
            seen.append(entitlements)
            let adHoc = profile.type == .adHoc
            let label = executable.slices.count > 1 && seen.count > 1 ? "\(executable.path) (\(slice.architecture))" : executable.path
            for mismatch in EntitlementChecker.check(entitlements, against: profile, adHoc: adHoc) {
                refusals.append(.entitlement(executable: label, mismatch))
            }
        }
        return refusals
    }
}
