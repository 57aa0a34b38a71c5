import AppleFormats

/// What `apple register` did, device by device.
public struct AppleRegistration: Sendable {
    /// One device's outcome.
    public struct Outcome: Sendable {
        /// What happened.
        public enum Kind: String, Sendable {
            /// Registered now.
            case registered
            /// Apple already had it (a 409, or the stored list): counts as success.
            case alreadyRegistered = "already-registered"
            /// Not registered: the slot limit, or Apple refused.
            case refused
        }
        /// The device's UDID.
        public var udid: DeviceIdentifier
        /// The name sent to Apple.
        public var name: String
        /// What happened.
        public var kind: Kind
        /// Why it was refused, one sentence; nil otherwise.
        public var reason: String?
    }

    /// Every device asked for, in order.
    public var outcomes: [Outcome]
    /// Calls made to Apple.
    public var calls: Int

    /// Outcomes of one kind.
    public func count(_ kind: Outcome.Kind) -> Int { outcomes.count { $0.kind == kind } }
}
