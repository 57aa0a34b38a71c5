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
    private let loop = BackgroundLoop(name: "provisioning", threads: 1, queueLimit: 16)

    init(home: Home, configuration: WebConfiguration) {
        // Job times follow the real clock even when pages' clock is pinned.
        provisioner = Provisioner(home: home, pausePoint: configuration.jobPausePoint)
        queue = JobQueue(home: home)
    }

    /// Starts the loop, with its pool.
    func start() throws {
        let provisioner = self.provisioner, queue = self.queue
        try loop.start { pool in
            if try await pool.run({ try provisioner.runNext() }) != nil { return .again }
            return .wait(until: try await pool.run { try queue.nextDue() })
        }
    }

    /// Tells the worker there may be new jobs.
    func wake() { loop.wake() }

    /// Stops the loop and its pool; a job in flight is taken over by the next start.
    func stop() { loop.stop() }
}
