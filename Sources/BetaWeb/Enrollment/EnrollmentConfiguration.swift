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
    public var burst = 10
    /// Replies one client address may post per minute, over all links (an office behind one
    /// address enrols several testers' devices).
    public var postsPerMinutePerAddress = 20
    /// How many replies one address may post at once.
    public var burstPerAddress = 30

    /// The defaults described on each property.
    public init() {}
}
