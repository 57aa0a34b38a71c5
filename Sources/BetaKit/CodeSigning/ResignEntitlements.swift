import AppleFormats

/// The entitlements a re-signed executable gets, derived as fastlane's `resign` does: the
/// binary's own, with `application-identifier` and the team from the new profile, the old team
/// prefix replaced in keychain access groups, and `get-task-allow` false. Nothing is copied from
/// the profile (so never a wildcard); a key the new profile does not allow is refused by name.
public enum ResignEntitlements {
    /// The entitlements for `bundleID` signed with `profile`, from `original` (the binary's own).
    public static func derive(_ original: [String: PlistValue], bundleID: String, bundle: String,
                              profile: ProvisioningProfile) throws(ResignError) -> [String: PlistValue] {
        guard profile.covers(bundleID: bundleID) else {
            throw ResignError.profileDoesNotCover(bundle: bundle, bundleID: bundleID, profile: profile.name)
        }
        let team = profile.teamIdentifiers.first ?? ""
        let prefix = profile.applicationIdentifierPrefixes.first ?? team
        let oldPrefix = original["application-identifier"]?.string?.split(separator: ".").first.map(String.init)
        var result = original
        result["application-identifier"] = .string("\(prefix).\(bundleID)")
        if !team.isEmpty { result["com.apple.developer.team-identifier"] = .string(team) }
        result["get-task-allow"] = .bool(false)
        if let oldPrefix, oldPrefix != prefix, let groups = result["keychain-access-groups"]?.array {
            result["keychain-access-groups"] = .array(groups.map { group in
                guard let text = group.string, text.hasPrefix(oldPrefix + ".") else { return group }
                return .string(prefix + text.dropFirst(oldPrefix.count))
            })
        }
        let mismatches = EntitlementChecker.check(result, against: profile, adHoc: profile.type == .adHoc)
        guard mismatches.isEmpty else {
            throw ResignError.entitlementsNotAllowed(bundle: bundle, profile: profile.name, mismatches: mismatches.map(\.description))
        }
        return result
    }
}
