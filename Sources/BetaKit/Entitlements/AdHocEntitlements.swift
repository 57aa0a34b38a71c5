import AppleFormats

/// Why entitlements could not be generated for a build.
public enum EntitlementsError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The profile's application identifier does not cover the bundle id.
    case bundleIDNotCovered(bundleID: String, applicationIdentifier: String?, profileName: String)
    /// The profile is not of a type ad hoc builds can use.
    case wrongProfileType(ProfileType, profileName: String)

    /// A sentence naming the values and the fix.
    public var description: String {
        switch self {
        case let .bundleIDNotCovered(bundleID, identifier, name):
            return "the profile \"\(name)\" is for \(identifier ?? "no application identifier"), which does not cover the bundle id \(bundleID); choose the profile made for \(bundleID) or a wildcard profile"
        case let .wrongProfileType(type, name):
            return "the profile \"\(name)\" is \(type.withArticle) profile, not ad hoc; create an Ad Hoc profile in the Apple Developer portal (or pass --allow-profile-type \(type.rawValue))"
        }
    }

    /// Both are refusals of otherwise valid input.
    public var category: ErrorCategory { .refused }
}

/// Builds the entitlements an ad hoc build of one app should be signed with.
public enum AdHocEntitlements {
    /// Keys whose profile values list environments; a release build uses production.
    static let environmentKeys: Set<String> = ["com.apple.developer.icloud-container-environment"]

    /// Every entitlement the profile grants with a concrete value, wildcards resolved against `bundleID`.
    public static func generate(profile: ProvisioningProfile, bundleID: String,
                                allowedTypes: Set<ProfileType> = [.adHoc]) throws(EntitlementsError) -> [String: PlistValue] {
        guard allowedTypes.contains(profile.type) else {
            throw EntitlementsError.wrongProfileType(profile.type, profileName: profile.name)
        }
        guard profile.covers(bundleID: bundleID) else {
            throw EntitlementsError.bundleIDNotCovered(bundleID: bundleID, applicationIdentifier: profile.applicationIdentifier, profileName: profile.name)
        }
        let team = profile.teamIdentifier
        let prefix = profile.applicationIdentifierPrefixes.first ?? team
        var result: [String: PlistValue] = [:]
        for (key, granted) in profile.entitlements {
            if environmentKeys.contains(key) {
                result[key] = .string("Production")
                continue
            }
            if let concrete = resolve(granted, bundleID: bundleID) { result[key] = concrete }
        }
        result["application-identifier"] = .string("\(prefix).\(bundleID)")
        result["com.apple.developer.team-identifier"] = .string(team)
        result["get-task-allow"] = .bool(false)
        if profile.entitlements["keychain-access-groups"] != nil {
            // Xcode's default: the app's own group first, then any concrete shared groups.
            var groups: [PlistValue] = [.string("\(prefix).\(bundleID)")]
            for group in resolve(profile.entitlements["keychain-access-groups"] ?? .array([]), bundleID: bundleID)?.array ?? [] where !groups.contains(group) {
                groups.append(group)
            }
            result["keychain-access-groups"] = .array(groups)
        }
        return result
    }

    /// Resolves wildcards: `X.*` becomes `X.<bundleID>`, a bare `*` has no concrete value, empty arrays are dropped.
    static func resolve(_ value: PlistValue, bundleID: String) -> PlistValue? {
        switch value {
        case let .string(text):
            if text == "*" { return nil }
            if text.hasSuffix(".*") { return .string(text.dropLast() + bundleID) }
            if text.hasSuffix("*") { return nil }
            return value
        case let .array(elements):
            var resolved: [PlistValue] = []
            for element in elements {
                if let concrete = resolve(element, bundleID: bundleID), !resolved.contains(concrete) { resolved.append(concrete) }
            }
            return resolved.isEmpty ? nil : .array(resolved)
        default:
            return value
        }
    }
}
