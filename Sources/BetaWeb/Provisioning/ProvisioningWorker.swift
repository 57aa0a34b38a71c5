#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// The server's background runner of provisioning jobs (`apple auto on`): one job at a time on a
/// blocking pool of its own (never on an event loop, and never on the pool that serves pages, so
/// re-signing a large build cannot hold up requests). It sleeps until the next job is due, a
/// database change wakes it (an approval queued a job), or a second passes. Jobs a killed server
/// left running are taken over by the next start.
final class ProvisioningWorker: Sendable {
    private let provisioner: Provisioner
    private let queue: JobQueue
    private let runningPool = Mutex<BlockingPool?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let signal = WakeSignal()

    init(home: Home, configuration: WebConfiguration) {
        // Job times follow the real clock even when pages' clock is pinned.
        provisioner = Provisioner(home: home, pausePoint: configuration.jobPausePoint)
        queue = JobQueue(home: home)
    }

    /// Starts the loop, with its pool.
    func start() throws {
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 16), name: "provisioning")
        runningPool.withLock { $0 = pool }
        let provisioner = self.provisioner, queue = self.queue, signal = self.signal
        let started = Task {
            while !Task.isCancelled {
                var wait: Duration = .seconds(1)
                do {
                    if try await pool.run({ try provisioner.runNext() }) != nil { continue }
                    if let due = try await pool.run({ try queue.nextDue() }) {
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

    /// Tells the worker there may be new jobs.
    func wake() { signal.wake() }

    /// Stops the loop and its pool; a job in flight is taken over by the next start.
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
