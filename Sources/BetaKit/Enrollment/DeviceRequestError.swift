import AppleFormats

/// Why a device request could not be approved, rejected or the rule set.
public enum DeviceRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No open request for this UDID.
    case notFound(DeviceIdentifier)
    /// The tester who asked was removed since.
    case testerRemoved(DeviceIdentifier, testerName: String)
    /// The group named in a rule is not a valid group name.
    case invalidGroup(String)

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .notFound(udid):
            return "no open request for device \(udid); list the open requests with `betactl requests`"
        case let .testerRemoved(udid, name):
            return "the request for device \(udid) came from \(name), who has been removed; reject it with `betactl reject-device \(udid)`"
        case let .invalidGroup(group):
            return "\"\(group)\" is not a group name (1 to 64 letters, digits, spaces, dots, dashes or underscores)"
        }
    }
}
