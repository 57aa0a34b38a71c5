#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// The server's background webhook sender: it sends due deliveries on the blocking pool (never on
/// an event loop), queues profile expiry notices once a minute, and otherwise sleeps until the
/// next delivery is due, a database change wakes it, or a second passes.
final class WebhookWorker: Sendable {
    private let deliverer: WebhookDeliverer
    private let pool: BlockingPool
    private let enabled: Bool
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let signal = WakeSignal()

    init(home: Home, pool: BlockingPool, configuration: WebConfiguration) {
        // Retries follow the real clock even when pages' clock is pinned.
        deliverer = WebhookDeliverer(home: home, schedule: configuration.webhookSchedule)
        self.pool = pool
        enabled = configuration.deliversWebhooks
    }

    /// Starts the loop.
    func start() {
        guard enabled else { return }
        let deliverer = self.deliverer, pool = self.pool, signal = self.signal
        let started = Task {
            var lastExpiryCheck = Date.distantPast
            while !Task.isCancelled {
                var wait: Duration = .seconds(1)
                do {
                    if Date().timeIntervalSince(lastExpiryCheck) >= 60 {
                        lastExpiryCheck = Date()
                        _ = try await pool.run { try deliverer.queueExpiryNotices() }
                    }
                    let sent = try await pool.run { try deliverer.deliverDue(limit: 8) }
                    if sent > 0 { continue }
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

    /// Stops the loop; an attempt in flight is retried by the next run.
    func stop() {
        task.withLock { current in
            current?.cancel()
            current = nil
        }
        signal.wake()
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
