import BetaKit

/// How device enrolment is guarded (`serve --allow-unverified-enrollment`, `--enroll-rate-limit`).
public struct EnrollmentConfiguration: Sendable, Equatable {
    /// Whether replies whose signature does not verify, or whose signer is not an Apple device,
    /// are taken in anyway. For simulators and tests only: with it, anyone holding a tester link
    /// can make up devices (as requests, still subject to approval).
    public var acceptsUnverified = false
    /// Open requests one tester may have at a time; a reply past it is refused.
    public var openRequestsPerTester = DeviceEnrollment.defaultOpenRequestLimit
    /// Enrolment replies one tester link may post per minute, on average; 0 turns both limits off.
    public var postsPerMinute = 6
    /// How many replies one tester link may post at once before the per-minute rate applies.
    public var burst = 6
    /// Replies one client address may post per minute, over all links: an office behind one
    /// address enrols several testers' devices.
    public var postsPerMinutePerAddress: Int { postsPerMinute * Self.addressFactor }
    /// How many replies one address may post at once.
    public var burstPerAddress: Int { burst * Self.addressFactor }
    /// How many links' worth of replies one address may post.
    public static let addressFactor = 3

    /// Sets both limits from one number (`serve --enroll-rate-limit N`): N a minute per link in
    /// bursts of up to N (at most 10), three times that per address; 0 turns them off.
    public mutating func setRate(_ perMinute: Int) {
        postsPerMinute = max(0, perMinute)
        burst = max(1, min(perMinute, 10))
    }

    /// The defaults described on each property.
    public init() {}
}
