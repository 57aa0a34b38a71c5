import AppleFormats

/// Checks signed entitlements against a profile's allowlist, the way iOS does on install.
///
/// The profile's values are patterns: a string ending in `*` is a prefix
/// wildcard (`TEAMID.*`), a bare `*` allows anything, an array allows any of its
/// elements, and an app array is checked element by element.
public enum EntitlementChecker {
    /// Every mismatch between `app` and `profile`, sorted by key. `adHoc` also requires get-task-allow to be false.
    public static func check(_ app: [String: PlistValue], against profile: ProvisioningProfile, adHoc: Bool) -> [EntitlementMismatch] {
        var mismatches: [EntitlementMismatch] = []
        for key in app.keys.sorted() {
            guard let value = app[key] else { continue }
            let granted = profile.entitlements[key]
            if key == "get-task-allow", adHoc, value.bool == true {
                mismatches.append(EntitlementMismatch(key: key, appValue: value, allowed: granted, reason: .debuggableAdHoc, profileName: profile.name))
                continue
            }
            guard let granted else {
                mismatches.append(EntitlementMismatch(key: key, appValue: value, allowed: nil, reason: .notGranted, profileName: profile.name))
                continue
            }
            if !allows(granted, value) {
                mismatches.append(EntitlementMismatch(key: key, appValue: value, allowed: granted, reason: .valueNotAllowed, profileName: profile.name))
            }
        }
        return mismatches
    }

    /// Whether the profile value `granted` allows the app value `value`.
    public static func allows(_ granted: PlistValue, _ value: PlistValue) -> Bool {
        switch (granted, value) {
        case let (_, .array(elements)):
            // Each element of the app's array must be allowed on its own.
            return elements.allSatisfy { allowsScalar(granted, $0) }
        default:
            return allowsScalar(granted, value)
        }
    }

    private static func allowsScalar(_ granted: PlistValue, _ value: PlistValue) -> Bool {
        switch granted {
        case let .array(options):
            return options.contains { allowsScalar($0, value) }
        case let .string(pattern):
            if pattern == "*" { return true }
            guard let text = value.string else { return false }
            if pattern.hasSuffix("*") { return text.hasPrefix(pattern.dropLast()) }
            return text == pattern
        case let .bool(allowed):
            // A granted true allows both values; a granted false allows only false.
            guard let requested = value.bool else { return false }
            return allowed || !requested
        default:
            return granted == value
        }
    }
}
