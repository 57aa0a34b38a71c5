/// One roster device's state at Apple, as of the last sync or registration.
public enum AppleDeviceState: String, Sendable, Codable {
    /// Registered and enabled.
    case registered
    /// Registered but disabled at Apple.
    case disabled
    /// Not in Apple's list.
    case notRegistered = "not-registered"
}
