#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaServer
import Synchronization

/// A background worker's loop (webhook deliveries, provisioning jobs): a blocking pool of its own,
/// so its work never runs on an event loop nor holds up the pool that serves pages, and a task
/// that runs one turn after another. A turn says whether more work is waiting (`again`) or when
/// the next is due; between turns the loop sleeps until then, until `wake()` (a database change),
/// or for a second at most. A turn that fails (the pool is busy, the database is locked) is tried
/// again after that pause.
final class BackgroundLoop: Sendable {
    /// What a turn found.
    enum Next: Sendable {
        /// More work is waiting: run the next turn at once.
        case again
        /// Nothing now; the next work is due at that time, if any is known.
        case wait(until: Date?)
    }

    private let name: String
    private let threads: Int
    private let queueLimit: Int
    private let runningPool = Mutex<BlockingPool?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let signal = WakeSignal()

    /// A loop whose pool is called `name`, with `threads` threads and room for `queueLimit` waiting jobs.
    init(name: String, threads: Int, queueLimit: Int) {
        self.name = name
        self.threads = threads
        self.queueLimit = queueLimit
    }

    /// Starts the pool and the loop running `turn`.
    func start(_ turn: @escaping @Sendable (BlockingPool) async throws -> Next) throws {
        let pool = try BlockingPool(configuration: .init(threads: threads, queueLimit: queueLimit), name: name)
        runningPool.withLock { $0 = pool }
        let signal = self.signal
        let started = Task {
            while !Task.isCancelled {
                var wait: Duration = .seconds(1)
                do {
                    switch try await turn(pool) {
                    case .again:
                        continue
                    case .wait(let due):
                        if let due {
                            let seconds = max(0.01, min(1, due.timeIntervalSinceNow))
                            wait = .milliseconds(Int(seconds * 1000))
                        }
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

    /// Tells the loop there may be new work.
    func wake() { signal.wake() }

    /// Stops the loop and its pool; work in flight is picked up by the next start.
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
