#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// The server's side of crash intake: stores uploads durably with group commit, runs the
/// background processor on the blocking pool, and keeps the rate limits.
///
/// Uploads arriving while a commit is in progress wait for the next one, which takes all of them
/// (up to `maxBatch`): one pair of transactions and one round of fsyncs answers many requests,
/// which is what lets a single disk accept hundreds of durable reports a second.
final class CrashIntake: Sendable {
    let store: CrashStore
    let processor: CrashProcessor
    let configuration: CrashIntakeConfiguration
    let limiter: RateLimiter
    /// The ceiling of one ingest key from all addresses together: `keyCeilingFactor` times the
    /// per-address rate, so one address spending its allowance leaves the others theirs, and a
    /// flood from many addresses is still bounded.
    let keyCeiling: RateLimiter
    static let keyCeilingFactor = 10
    private let pool: BlockingPool
    private let now: @Sendable () -> Date

    private struct Pending {
        var submissions: [CrashSubmission]
        var continuation: CheckedContinuation<[CrashReceipt], any Error>
    }

    private struct CommitState {
        var pending: [Pending] = []
        var committing = false
    }

    private struct WorkerState {
        var task: Task<Void, Never>?
        var waiter: CheckedContinuation<Void, Never>?
        var woken = false
        var stopped = false
    }

    private let commits = Mutex(CommitState())
    private let worker = Mutex(WorkerState())

    init(home: Home, pool: BlockingPool, configuration: CrashIntakeConfiguration, now: @escaping @Sendable () -> Date) throws {
        store = CrashStore(home: home)
        processor = try CrashProcessor(store: store)
        self.configuration = configuration
        limiter = RateLimiter(perMinute: configuration.reportsPerMinute, burst: configuration.burst)
        keyCeiling = RateLimiter(perMinute: configuration.reportsPerMinute * Self.keyCeilingFactor, burst: configuration.burst * Self.keyCeilingFactor)
        self.pool = pool
        self.now = now
    }

    /// Takes `cost` from the allowance of ingest key `keyID` sending from `address`: nil when
    /// allowed, else how long to wait. Each address has the configured rate for itself (an
    /// abuser holding the public key spends only their own); the key as a whole has ten times it.
    func takeKeyAllowance(keyID: Int64, address: String, cost: Int) -> Duration? {
        if let wait = limiter.take("key:\(keyID):\(address)", cost: cost) { return wait }
        return keyCeiling.take("key:\(keyID)", cost: cost)
    }

    /// Stores `submissions` durably (fsync'd and committed when this returns) and wakes the
    /// processor. Throws `CrashError` for a report that is empty or too large.
    func submit(_ submissions: [CrashSubmission]) async throws -> [CrashReceipt] {
        guard !submissions.isEmpty else { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            let lead = commits.withLock { state -> Bool in
                state.pending.append(Pending(submissions: submissions, continuation: continuation))
                if state.committing { return false }
                state.committing = true
                return true
            }
            if lead { Task { await self.commitLoop() } }
        }
    }

    /// Commits what is pending, batch after batch, until nothing is left.
    private func commitLoop() async {
        while true {
            let batch = commits.withLock { state -> [Pending] in
                var taken: [Pending] = []
                var reports = 0
                while let first = state.pending.first, taken.isEmpty || reports + first.submissions.count <= configuration.maxBatch {
                    taken.append(first)
                    reports += first.submissions.count
                    state.pending.removeFirst()
                }
                if taken.isEmpty { state.committing = false }
                return taken
            }
            if batch.isEmpty { return }
            let store = self.store, now = self.now, limit = configuration.maxReportBytes
            let all = batch.flatMap(\.submissions)
            do {
                let receipts = try await pool.run { try store.store(all, now: now(), maxReportBytes: limit) }
                var offset = 0
                for pending in batch {
                    pending.continuation.resume(returning: Array(receipts[offset ..< offset + pending.submissions.count]))
                    offset += pending.submissions.count
                }
            } catch {
                // One request's bad report must not fail the others: each is tried on its own.
                if batch.count == 1 {
                    batch[0].continuation.resume(throwing: error)
                } else {
                    for pending in batch {
                        let submissions = pending.submissions
                        do {
                            pending.continuation.resume(returning: try await pool.run { try store.store(submissions, now: now(), maxReportBytes: limit) })
                        } catch {
                            pending.continuation.resume(throwing: error)
                        }
                    }
                }
            }
            wake()
        }
    }

    /// Starts the background processor: it works through the queue, then waits for new reports,
    /// a database change or a second to pass.
    func start() {
        guard configuration.processInBackground else { return }
        let task = Task { [self] in
            let home = store.home
            _ = try? await pool.run { try Archive(home: home).cleanOrphans() }
            while !Task.isCancelled {
                let processor = self.processor, now = self.now
                do {
                    let count = try await pool.run { try processor.processNext(limit: 32, now: now()) }
                    if count > 0 { continue }
                } catch is CancellationError {
                    return
                } catch {
                    // The pool is busy or the database is locked: try again after the pause below.
                }
                await waitForWork(timeout: .seconds(1))
            }
        }
        worker.withLock { $0.task = task }
    }

    /// Stops the background processor; a report it was processing stays queued for next time.
    func stop() {
        let (task, waiter) = worker.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            state.stopped = true
            defer { state.task = nil; state.waiter = nil }
            return (state.task, state.waiter)
        }
        task?.cancel()
        waiter?.resume()
    }

    /// Tells the processor there may be work (new reports, requeued ones).
    func wake() {
        let waiter = worker.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.woken = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    private func waitForWork(timeout: Duration) async {
        let timer = Task { [weak self] in
            // A cancelled timer (the wait ended first) must not wake the next wait.
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.wake()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = worker.withLock { state -> Bool in
                if state.woken || state.stopped {
                    state.woken = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
