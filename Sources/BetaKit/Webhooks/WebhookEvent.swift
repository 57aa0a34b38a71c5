/// What a webhook can be told about. The raw value is the `type` in payloads and the name given
/// to `webhook add --event`.
public enum WebhookEvent: String, CaseIterable, Sendable, Codable {
    /// A release was published.
    case releasePublished = "release.published"
    /// A release was revoked.
    case releaseRevoked = "release.revoked"
    /// A tester downloaded a release's package.
    case releaseDownloaded = "release.downloaded"
    /// A tester was added.
    case testerAdded = "tester.added"
    /// A device sent its identity through the enrolment profile.
    case deviceEnrolled = "device.enrolled"
    /// A device request was approved onto the roster.
    case deviceApproved = "device.approved"
    /// A device was registered with Apple.
    case deviceRegistered = "device.registered"
    /// A device is in a current profile and can install (emitted by the closed-loop flow).
    case deviceReady = "device.ready"
    /// A provisioning profile was imported.
    case profileImported = "profile.imported"
    /// A provisioning profile expires in 30 or 7 days (once each).
    case profileExpiring = "profile.expiring"
    /// A crash report started a new crash group.
    case crashNewGroup = "crash.new_group"
    /// A crash group was seen again in a build newer than the last one it was seen in.
    case crashRegressed = "crash.regressed"
    /// A crash report was symbolicated.
    case crashSymbolicated = "crash.symbolicated"
    /// A background job failed.
    case jobFailed = "job.failed"
    /// A test sent by `webhook test`; not subscribable.
    case webhookTest = "webhook.test"

    /// The events an endpoint can subscribe to.
    public static var subscribable: [WebhookEvent] { allCases.filter { $0 != .webhookTest } }

    /// A short sentence for chat messages.
    public var headline: String {
        switch self {
        case .releasePublished: "New build published"
        case .releaseRevoked: "Build revoked"
        case .releaseDownloaded: "Build downloaded"
        case .testerAdded: "Tester added"
        case .deviceEnrolled: "Device enrolled"
        case .deviceApproved: "Device approved"
        case .deviceRegistered: "Device registered with Apple"
        case .deviceReady: "Device ready to install"
        case .profileImported: "Provisioning profile imported"
        case .profileExpiring: "Provisioning profile expiring"
        case .crashNewGroup: "New crash group"
        case .crashRegressed: "Crash regressed"
        case .crashSymbolicated: "Crash symbolicated"
        case .jobFailed: "Job failed"
        case .webhookTest: "Test event"
        }
    }
}
