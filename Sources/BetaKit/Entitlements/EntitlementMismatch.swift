import AppleFormats

/// One entitlement an executable was signed with that its profile does not allow.
///
/// iOS reports these only as "integrity could not be verified", so the message
/// names the key, the app's value and what the profile allows.
public struct EntitlementMismatch: Sendable, Equatable, CustomStringConvertible {
    /// Why the value is refused.
    public enum Reason: Sendable, Equatable {
        /// The profile does not grant the key at all.
        case notGranted
        /// The profile grants the key with other values.
        case valueNotAllowed
        /// get-task-allow is true but ad hoc builds must not be debuggable.
        case debuggableAdHoc
    }

    /// The entitlement key.
    public var key: String
    /// The value the executable was signed with.
    public var appValue: PlistValue
    /// What the profile grants for the key, if anything.
    public var allowed: PlistValue?
    /// Why it is refused.
    public var reason: Reason
    /// The profile's name, for the message.
    public var profileName: String

    /// "entitlement "key": the app was signed with X, but the profile "P" allows only Y".
    public var description: String {
        switch reason {
        case .notGranted:
            return "entitlement \"\(key)\": the app was signed with \(appValue.displayText), but the profile \"\(profileName)\" does not grant \(key) at all; enable the capability for the App ID and regenerate the profile, or remove the entitlement"
        case .valueNotAllowed:
            return "entitlement \"\(key)\": the app was signed with \(appValue.displayText), but the profile \"\(profileName)\" allows only \(allowed?.displayText ?? "nothing"); sign with values the profile allows or regenerate the profile"
        case .debuggableAdHoc:
            return "entitlement \"get-task-allow\": the app was signed with true, but an ad hoc build must be signed with false (the profile \"\(profileName)\" allows \(allowed?.displayText ?? "false")); export with the Ad Hoc method, not Development"
        }
    }
}
