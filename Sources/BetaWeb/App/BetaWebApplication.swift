#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// The web application `betactl serve` runs, on top of a home. It creates the shared parts (pool,
/// snapshots, renderer, crash intake, webhook sender) and the feature controllers (`SitePages`,
/// `TesterController`, `IntakeController`, `APIController`, `AdminController`),
/// and wires their routes (`router`) and middleware.
///
/// ```swift
/// let app = try BetaWebApplication(home: home, configuration: WebConfiguration())
/// app.start()
/// try await HTTPServer.serve(configuration: server, router: app.router, middleware: app.middleware, log: app.log(base))
/// app.stop()
/// ```
public final class BetaWebApplication: Sendable {
    /// The settings it runs with.
    public let configuration: WebConfiguration
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let pages = PageCache()
    let renderer: PageRenderer
    let assets: WebAssets
    /// Crash intake: durable group-committed uploads, the background processor, rate limits.
    let crashes: CrashIntake
    /// The background webhook sender.
    let webhooks: WebhookWorker
    /// The background runner of provisioning jobs.
    let provisioning: ProvisioningWorker
    /// The chrome, static assets and error pages every part shares.
    let site: SitePages
    /// A tester's side under `/t/<token>`.
    let tester: TesterController
    /// The SDKs' crash endpoints.
    let intake: IntakeController
    /// The JSON API under `/api/v1`.
    let api: APIController
    /// The dashboard under `/admin`.
    let admin: AdminController
    private let watchTask = Mutex<Task<Void, Never>?>(nil)

    /// Loads the templates and static files (failing with the file, line and tag of a broken
    /// template) and starts the blocking-work pool.
    public init(home: Home, configuration: WebConfiguration) throws {
        self.configuration = configuration
        self.home = home
        assets = try WebAssets.load(templatesDirectory: configuration.templatesDirectory, webDirectory: configuration.webDirectory)
        renderer = try PageRenderer(assets: assets)
        pool = try BlockingPool(configuration: configuration.blockingPool, name: "web-blocking")
        let crashes = try CrashIntake(home: home, pool: pool, configuration: configuration.crashes, now: configuration.now)
        self.crashes = crashes
        let webhooks = WebhookWorker(home: home, configuration: configuration)
        self.webhooks = webhooks
        let provisioning = ProvisioningWorker(home: home, configuration: configuration)
        self.provisioning = provisioning
        // `release` or `add-symbols` may have queued reports again, or events, or an approval a job: a change wakes the
        // processor, the webhook sender and the job runner.
        snapshots = SnapshotStore(home: home, pool: pool, watcher: try StoreChangeWatcher(store: home.store), onChange: {
            crashes.wake()
            webhooks.wake()
            provisioning.wake()
        })
        let enrollment = configuration.enrollment
        let enrollmentLimits = (RateLimiter(perMinute: enrollment.postsPerMinute, burst: enrollment.burst),
                                RateLimiter(perMinute: enrollment.postsPerMinute == 0 ? 0 : enrollment.postsPerMinutePerAddress,
                                            burst: enrollment.burstPerAddress))
        // The features, each holding only what it needs.
        site = SitePages(home: home, snapshots: snapshots, renderer: renderer, assets: assets)
        // What the API and the dashboard both do, and their upload head checks, are shared by the two.
        let actions = WebActions(home: home, pool: pool, snapshots: snapshots, crashes: crashes, configuration: configuration)
        let headChecks = UploadHeadChecks(home: home, pool: pool, snapshots: snapshots, credentials: CredentialCache(), configuration: configuration)
        intake = IntakeController(home: home, pool: pool, crashes: crashes, limits: configuration.crashes)
        api = APIController(home: home, pool: pool, snapshots: snapshots, crashes: crashes, intake: intake, webhooks: webhooks,
                            provisioning: provisioning, actions: actions, headChecks: headChecks,
                            updateLimiter: RateLimiter(perMinute: 60, burst: 20), configuration: configuration)
        admin = AdminController(home: home, pool: pool, snapshots: snapshots, renderer: renderer, assets: assets, crashes: crashes,
                                webhooks: webhooks, provisioning: provisioning, actions: actions, headChecks: headChecks,
                                loginThrottle: LoginThrottle(), configuration: configuration)
        tester = TesterController(home: home, pool: pool, snapshots: snapshots, pages: pages, renderer: renderer, site: site,
                                  crashes: crashes, intake: intake, configuration: configuration, enrollmentLimits: enrollmentLimits)
    }

    /// Starts noticing database changes while no request comes, and brings releases published by older versions up to date
    /// (recording the devices of their profiles) in the background.
    public func start() {
        let interval = configuration.refreshInterval
        let pool = self.pool
        let snapshots = self.snapshots
        let home = self.home
        crashes.start()
        // Without its threads, webhooks stay queued for the next start (or `betactl webhook test`).
        try? webhooks.start()
        // Likewise, jobs stay queued for the next start (or `betactl jobs run`).
        try? provisioning.start()
        let task = Task {
            _ = try? await pool.run { try Archive(home: home).recordMissingProfileDevices() }
            // Requests check for changes themselves; this notices them while none come.
            while !Task.isCancelled {
                _ = try? await pool.run { snapshots.noticeChanges() }
                try? await Task.sleep(for: interval)
            }
        }
        watchTask.withLock { $0 = task }
    }

    /// Stops the change watcher and lets the pool's threads finish.
    public func stop() {
        watchTask.withLock { task in
            task?.cancel()
            task = nil
        }
        crashes.stop()
        webhooks.stop()
        provisioning.stop()
        pool.shutdown()
    }

    /// The application's middleware, inside the server's standard layers: security headers on every
    /// response, then HTML error pages, and inside those problem+json errors for the API.
    public var middleware: [any Middleware] {
        [SecurityHeadersMiddleware(), WebErrorMiddleware(pages: { [site] request, error in await site.errorPage(request, error) },
                                                         internalError: { [site] request, context in await site.internalErrorPage(request, context) }),
         APIProblemMiddleware()]
    }

    /// Rewrites request targets for logs: a tester's token, an app's crash ingest key and a demo
    /// login key become `…`.
    public static func redactTarget(_ target: String) -> String {
        redactSegment(after: "/admin/login/demo/", in: redactTesterToken(redactIngestKey(target)))
    }

    static func redactTesterToken(_ target: String) -> String { redactSegment(after: "/t/", in: target) }

    /// `target` with the path segment after the first `prefix` replaced by `…`.
    static func redactSegment(after prefix: String, in target: String) -> String {
        guard let range = target.firstRange(of: prefix) else { return target }
        let rest = target[range.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard end > rest.startIndex else { return target }
        return String(target[..<range.upperBound]) + "…" + String(rest[end...])
    }

    /// The current time.
    var now: Date { configuration.now() }
}
