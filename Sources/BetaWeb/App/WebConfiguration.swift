#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// How the web application runs: where branding overrides live, how blocking work is pooled, how
/// quickly database changes are noticed, and what time it is.
public struct WebConfiguration: Sendable {
    /// A directory whose templates replace the embedded ones of the same name (`serve --templates`).
    public var templatesDirectory: String?
    /// A directory whose files replace the embedded static files of the same path (`serve --web`).
    public var webDirectory: String?
    /// The pool SQLite reads, file opens and other blocking work run on.
    public var blockingPool = BlockingPool.Configuration()
    /// How often the database is checked for changes made by other processes.
    public var refreshInterval: Duration = .milliseconds(100)
    /// Crash intake limits (report size, rate per key and per tester link).
    public var crashes = CrashIntakeConfiguration()
    /// Enrolment guards: signature verification, open requests per tester, rate limits.
    public var enrollment = EnrollmentConfiguration()
    /// The largest upload (a release with its dSYMs, or symbols) the API and the dashboard accept.
    public var maxUploadBytes: Int64 = 4 << 30
    /// Whether webhooks are delivered in the background (and profile expiry notices queued).
    public var deliversWebhooks = true
    /// Webhook retry and disabling times.
    public var webhookSchedule = WebhookSchedule.standard
    /// For tests only (`BETACTL_JOB_PAUSE`): where provisioning jobs stop until the server is killed.
    public var jobPausePoint: String?
    /// The current time; tests pin it (`BETACTL_NOW`).
    public var now: @Sendable () -> Date = { Date() }

    /// The defaults described on each property.
    public init() {}
}
