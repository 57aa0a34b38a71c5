#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// The server's background webhook sender: it sends due deliveries on a blocking pool of its own
/// (never on an event loop, and never on the pool that serves pages, so a slow endpoint cannot
/// hold up requests), several at a time so one slow endpoint does not hold up the others; it
/// queues profile expiry notices once a minute, and otherwise sleeps until the next delivery is
/// due, a database change wakes it, or a second passes.
final class WebhookWorker: Sendable {
    /// Deliveries sent at the same time.
    static let concurrency = 4
    private let deliverer: WebhookDeliverer
    private let enabled: Bool
    private let loop = BackgroundLoop(name: "webhooks", threads: WebhookWorker.concurrency, queueLimit: 256)
    private let expiryCheck = ExpiryCheck()

    init(home: Home, configuration: WebConfiguration) {
        // Retries follow the real clock even when pages' clock is pinned.
        deliverer = WebhookDeliverer(home: home, schedule: configuration.webhookSchedule)
        enabled = configuration.deliversWebhooks
    }

    /// Starts the loop, with its pool.
    func start() throws {
        guard enabled else { return }
        let deliverer = self.deliverer, expiryCheck = self.expiryCheck
        try loop.start { pool in
            let checkExpiry = expiryCheck.last.withLock { last in
                guard Date().timeIntervalSince(last) >= 60 else { return false }
                last = Date()
                return true
            }
            if checkExpiry { _ = try await pool.run { try deliverer.queueExpiryNotices() } }
            let claims = try await pool.run { try deliverer.claimDue(limit: Self.concurrency) }
            if !claims.isEmpty {
                await withTaskGroup(of: Void.self) { group in
                    for claim in claims {
                        // A failure to record leaves the attempt leased; it is retried when the lease ends.
                        group.addTask { _ = try? await pool.run { try deliverer.deliver(claim) } }
                    }
                }
                return .again
            }
            return .wait(until: try await pool.run { try deliverer.nextDue() })
        }
    }

    /// Tells the worker there may be new deliveries.
    func wake() { loop.wake() }

    /// Stops the loop and its pool; an attempt in flight is retried by the next run.
    func stop() { loop.stop() }

    /// When profile expiry notices were last queued (once a minute).
    private final class ExpiryCheck: Sendable {
        let last = Mutex(Date.distantPast)
    }
}
