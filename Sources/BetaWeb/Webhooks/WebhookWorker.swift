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
    private let runningPool = Mutex<BlockingPool?>(nil)
    private let enabled: Bool
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let signal = WakeSignal()

    init(home: Home, configuration: WebConfiguration) {
        // Retries follow the real clock even when pages' clock is pinned.
        deliverer = WebhookDeliverer(home: home, schedule: configuration.webhookSchedule)
        enabled = configuration.deliversWebhooks
    }

    /// Starts the loop, with its pool.
    func start() throws {
        guard enabled else { return }
        let pool = try BlockingPool(configuration: .init(threads: Self.concurrency, queueLimit: 256), name: "webhooks")
        runningPool.withLock { $0 = pool }
        let deliverer = self.deliverer, signal = self.signal
        let started = Task {
            var lastExpiryCheck = Date.distantPast
            while !Task.isCancelled {
                var wait: Duration = .seconds(1)
                do {
                    if Date().timeIntervalSince(lastExpiryCheck) >= 60 {
                        lastExpiryCheck = Date()
                        _ = try await pool.run { try deliverer.queueExpiryNotices() }
                    }
                    let claims = try await pool.run { try deliverer.claimDue(limit: Self.concurrency) }
                    if !claims.isEmpty {
                        await withTaskGroup(of: Void.self) { group in
                            for claim in claims {
                                // A failure to record leaves the attempt leased; it is retried when the lease ends.
                                group.addTask { _ = try? await pool.run { try deliverer.deliver(claim) } }
                            }
                        }
                        continue
                    }
                    if let due = try await pool.run({ try deliverer.nextDue() }) {
                        let seconds = max(0.01, min(1, due.timeIntervalSinceNow))
                        wait = .milliseconds(Int(seconds * 1000))
                    }
                } catch is CancellationError {
                    return
                } catch {
                    // The pool is busy or the database is locked: try again after the pause.
                }
                await signal.wait(timeout: wait)
            }
        }
        task.withLock { $0 = started }
    }

    /// Tells the worker there may be new deliveries.
    func wake() { signal.wake() }

    /// Stops the loop and its pool; an attempt in flight is retried by the next run.
    func stop() {
        task.withLock { current in
            current?.cancel()
            current = nil
        }
        signal.wake()
        runningPool.withLock { pool in
            pool?.shutdown()
            pool = nil
        }
    }
}

/// A wake-up that is not lost when it comes before the wait.
final class WakeSignal: Sendable {
    private struct State {
        var woken = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wake() {
        let waiter = state.withLock { current -> CheckedContinuation<Void, Never>? in
            guard let waiter = current.waiter else {
                current.woken = true
                return nil
            }
            current.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(timeout: Duration) async {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.wake()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { current -> Bool in
                if current.woken {
                    current.woken = false
                    return true
                }
                current.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
