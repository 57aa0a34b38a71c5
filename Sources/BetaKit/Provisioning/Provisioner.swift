#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPClient
import PosixIO

/// Runs the provisioning jobs: registers approved devices with Apple, then, per batch, regenerates
/// each affected app's profiles, re-signs the newest release of each app offered to the devices'
/// testers, publishes it superseding the one it came from, and marks the devices ready
/// (`device.ready`). Every step is idempotent and records what it did before the next starts, so
/// a process killed at any point resumes without a second call that changes anything at Apple.
/// Blocking: run it on a blocking pool or a CLI thread, never on an event loop.
public struct Provisioner: Sendable {
    let home: Home
    let retry: HTTPClient.RetryPolicy
    let clock: @Sendable () -> Date
    let log: (@Sendable (String) -> Void)?
    /// For tests only (`BETACTL_JOB_PAUSE`): the point where a job stops until the process is
    /// killed (`published`: a re-signed build is published and not yet recorded).
    let pausePoint: String?

    /// A provisioner for `home`. `retry` is the client's own retrying of one call (the queue
    /// retries whole steps with a longer backoff); `log` also receives each call to Apple.
    public init(home: Home, retry: HTTPClient.RetryPolicy = HTTPClient.RetryPolicy(maximumAttempts: 3, baseDelay: 1, maximumDelay: 30),
                clock: @escaping @Sendable () -> Date = { Date() }, log: (@Sendable (String) -> Void)? = nil, pausePoint: String? = nil) {
        self.home = home
        self.retry = retry
        self.clock = clock
        self.log = log
        self.pausePoint = pausePoint
    }

    /// Stops here for good when `point` is the test's pause point, so a test can kill the process
    /// at a known place.
    func pause(at point: String) {
        guard pausePoint == point else { return }
        while true { CurrentThread.sleep(for: .seconds(3600)) }
    }

    var queue: JobQueue { JobQueue(home: home) }

    /// Runs the first due job, if any; returns it as it stands afterwards.
    @discardableResult
    public func runNext() throws -> Job? {
        guard let job = try queue.claim(now: clock(), kinds: [JobKind.registerDevice.rawValue, JobKind.refreshApps.rawValue]) else { return nil }
        run(job)
        return try queue.job(id: job.id)
    }

    /// Runs due jobs until none is due (jobs waiting for later stay waiting); returns the jobs run.
    @discardableResult
    public func runDue(limit: Int = 1000) throws -> [Job] {
        var ran: [Job] = []
        while ran.count < limit, let job = try runNext() { ran.append(job) }
        return ran
    }

    /// Runs one claimed job to its end or to its next wait.
    func run(_ job: Job) {
        do {
            switch JobKind(rawValue: job.kind) {
            case .registerDevice: try register(job)
            case .refreshApps: try refresh(job)
            case nil: throw ProvisioningFailure.permanent("job \(job.id) is of kind \(job.kind), which this betactl does not know; upgrade betactl or cancel it")
            }
        } catch is JobCancelled {
            return
        } catch {
            settle(job, after: ProvisioningFailure.classify(error))
        }
    }

    /// Records a failed run: a wait before the next, or the end with the sentence (and `job.failed`).
    func settle(_ job: Job, after failure: ProvisioningFailure) {
        let now = clock()
        do {
            switch failure {
            case let .transient(text, retryAfter) where job.attempts < JobQueue.maximumAttempts:
                let wait = max(JobQueue.backoff(attempts: job.attempts), retryAfter ?? 0)
                try queue.postpone(job, error: text, until: now.addingTimeInterval(wait), now: now)
            case let .transient(text, _):
                try queue.fail(job, error: "gave up after \(job.attempts) attempts: \(text); once that is fixed, run `betactl jobs retry \(job.id)`", now: now)
            case let .permanent(text):
                try queue.fail(job, error: text + " (then `betactl jobs retry \(job.id)`)", now: now)
            }
        } catch {
            // The database refused the record: the claim lapses with this process and the job runs again.
        }
    }

    /// Records a step's progress, unless the job was cancelled meanwhile (then the run stops).
    func checkpoint(_ job: Job, step: String, payload: String) throws {
        let now = clock()
        try home.store.write { db in
            guard try JobQueue.isStillMine(job.id, db: db) else { throw JobCancelled() }
            try JobQueue.progress(job.id, step: step, payload: payload, db: db, now: now)
        }
    }

    /// A client for the stored key (its calls logged to the home's call log).
    func client() throws -> AppStoreConnectClient {
        try AppleAccount(home: home).client(retry: retry, log: log)
    }
}

/// The job was cancelled (or taken over) while this run worked on it: stop quietly.
struct JobCancelled: Error {}
