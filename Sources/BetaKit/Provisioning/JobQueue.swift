#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// The durable job queue in the home's database. A job is claimed by one process at a time (its
/// pid is recorded); a claim whose process is gone (killed, restarted) is taken over, so work
/// resumes from the step the job reached. Every change is one transaction.
public struct JobQueue: Sendable {
    let home: Home

    /// Runs of one job that may end in a transient failure before it stops for good.
    public static let maximumAttempts = 8
    /// A claim older than this is taken over even if its process seems alive (a reused pid).
    static let staleClaim: TimeInterval = 3600

    /// The queue of `home`.
    public init(home: Home) { self.home = home }

    /// The columns of `SELECT … FROM jobs`, shared with `job(from:)`.
    static let columns = SQLColumns(["id", "kind", "state", "step", "subject", "payload", "attempts", "next_attempt_ms", "last_error",
                                     "created_at", "updated_at", "finished_at"])
    /// `columns` and the claim's owner, read by `claim(now:kinds:)`.
    static let claimColumns = SQLColumns(columns.entries + ["claimed_by", "claimed_at"])

    /// Decodes a job from a row whose SELECT includes `columns`.
    static func job(from row: SQLRowReader) throws(SQLRowError) -> Job {
        Job(id: try row.int("id"), kind: try row.text("kind"), state: try row.required("state", as: Job.State.self), step: try row.text("step"),
            subject: try row.optionalText("subject"), payload: try row.text("payload"), attempts: Int(try row.int("attempts")),
            nextAttemptAt: try row.optionalInt("next_attempt_ms").map { Date(timeIntervalSince1970: Double($0) / 1000) },
            lastError: try row.optionalText("last_error"), createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            finishedAt: try row.optionalDate("finished_at"))
    }

    static func job(from row: SQLiteRow) throws(SQLRowError) -> Job { try job(from: columns.reader(row)) }

    static func milliseconds(_ date: Date) -> Int64 { WebhookOutbox.milliseconds(date) }

    // MARK: reading

    /// Jobs, newest first (at most `limit`); finished ones too unless `activeOnly`.
    public func jobs(limit: Int = 500, activeOnly: Bool = false) throws -> [Job] {
        try home.store.read { db in
            let filter = activeOnly ? "WHERE state NOT IN ('succeeded', 'failed', 'cancelled')" : ""
            return try db.query("SELECT \(Self.columns.list) FROM jobs \(filter) ORDER BY id DESC LIMIT ?", [.integer(Int64(max(1, limit)))])
                .map { row throws(SQLRowError) in try Self.job(from: row) }
        }
    }

    /// One job.
    public func job(id: Int64) throws -> Job {
        try home.store.read { db in try Self.job(id: id, db: db) }
    }

    static func job(id: Int64, db: SQLiteConnection) throws -> Job {
        guard let row = try db.queryOne("SELECT \(columns.list) FROM jobs WHERE id = ?", [.integer(id)]) else { throw JobError.unknownJob(id) }
        return try Self.job(from: row)
    }

    /// When the next waiting or queued job is due (nil: none is; a date in the past: one is due now).
    public func nextDue() throws -> Date? {
        try home.store.read { db in
            guard let row = try db.queryOne("SELECT count(*), min(coalesce(next_attempt_ms, 0)) FROM jobs WHERE state IN ('queued', 'waiting')"),
                  (row.int(0) ?? 0) > 0 else { return nil }
            return Date(timeIntervalSince1970: Double(row.int(1) ?? 0) / 1000)
        }
    }

    // MARK: writing

    /// Queues a job inside the caller's transaction; due at `due` (nil: now). Returns its id.
    @discardableResult
    static func enqueue(_ kind: JobKind, subject: String?, payload: String, step: String, state: Job.State = .queued, due: Date? = nil,
                        db: SQLiteConnection, now: Date) throws -> Int64 {
        let stamp = Timestamp.string(now)
        try db.query("""
            INSERT INTO jobs (kind, state, step, subject, payload, next_attempt_ms, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(kind.rawValue), .text(state.rawValue), .text(step), .optional(subject), .text(payload),
                  due.map { .integer(milliseconds($0)) } ?? .null, .text(stamp), .text(stamp)])
        return db.lastInsertRowID
    }

    /// Kinds of which one job at a time may run, in all processes together (two batches
    /// regenerating the same app's profiles at once would delete each other's).
    static let exclusiveKinds: Set<String> = [JobKind.refreshApps.rawValue]

    /// Takes the first due job for this process: a queued or waiting one whose time has come, or a
    /// running one whose process is gone. Its attempts count goes up by one. A job of an exclusive
    /// kind waits while another of its kind runs in a live process.
    func claim(now: Date, kinds: Set<String>? = nil) throws -> Job? {
        let me = Int64(CurrentProcess.id)
        return try home.store.write { db in
            let rows = try db.query("""
                SELECT \(Self.claimColumns.list) FROM jobs
                WHERE (state IN ('queued', 'waiting') AND coalesce(next_attempt_ms, 0) <= ?) OR state = 'running'
                ORDER BY coalesce(next_attempt_ms, 0), id LIMIT 64
                """, [.integer(Self.milliseconds(now))])
            let candidates = try rows.map { row throws(SQLRowError) in
                let row = Self.claimColumns.reader(row)
                let job = try Self.job(from: row)
                // An unclaimed job has no owner (NULL): it is nobody's, so not live.
                let owner = try row.optionalInt("claimed_by") ?? 0
                let claimedAt = try row.optionalDate("claimed_at") ?? .distantPast
                let stale = now.timeIntervalSince(claimedAt) > Self.staleClaim
                let live = owner == me || (Archive.isAlive(Int32(truncatingIfNeeded: owner)) && !stale)
                return (job: job, live: live)
            }
            let busy = Set(candidates.filter { $0.job.state == .running && $0.live }.map(\.job.kind))
            for candidate in candidates {
                var job = candidate.job
                if let kinds, !kinds.contains(job.kind) { continue }
                if job.state == .running, candidate.live { continue }
                if Self.exclusiveKinds.contains(job.kind), busy.contains(job.kind) { continue }
                job.attempts += 1
                job.state = .running
                try db.query("UPDATE jobs SET state = 'running', attempts = ?, claimed_by = ?, claimed_at = ?, updated_at = ? WHERE id = ?",
                             [.integer(Int64(job.attempts)), .integer(me), .text(Timestamp.string(now)), .text(Timestamp.string(now)), .integer(job.id)])
                return job
            }
            return nil
        }
    }

    /// Records progress of a running job: its step and payload (one commit, so a kill after it resumes here).
    static func progress(_ id: Int64, step: String, payload: String, db: SQLiteConnection, now: Date) throws {
        try db.query("UPDATE jobs SET step = ?, payload = ?, updated_at = ? WHERE id = ?",
                     [.text(step), .text(payload), .text(Timestamp.string(now)), .integer(id)])
    }

    /// Marks a job done inside the caller's transaction.
    static func succeed(_ id: Int64, step: String, payload: String, db: SQLiteConnection, now: Date) throws {
        try db.query("""
            UPDATE jobs SET state = 'succeeded', step = ?, payload = ?, last_error = NULL, claimed_by = NULL, claimed_at = NULL,
                next_attempt_ms = NULL, updated_at = ?, finished_at = ? WHERE id = ?
            """, [.text(step), .text(payload), .text(Timestamp.string(now)), .text(Timestamp.string(now)), .integer(id)])
    }

    /// Stops a job for good with `error` (a sentence with the fix) and queues `job.failed`.
    func fail(_ job: Job, error: String, now: Date, also: ((SQLiteConnection) throws -> Void)? = nil) throws {
        try home.store.write { db in
            try db.query("""
                UPDATE jobs SET state = 'failed', last_error = ?, claimed_by = NULL, claimed_at = NULL, next_attempt_ms = NULL,
                    updated_at = ?, finished_at = ? WHERE id = ?
                """, [.text(error), .text(Timestamp.string(now)), .text(Timestamp.string(now)), .integer(job.id)])
            let label = JobKind(rawValue: job.kind)?.label ?? job.kind
            try WebhookOutbox.jobFailed(job: "job \(job.id) (\(label))", subject: job.subject, error: error, path: "/admin/provisioning", db: db, now: now)
            try also?(db)
        }
    }

    /// Puts a job back to wait until `due` after a transient failure.
    func postpone(_ job: Job, error: String, until due: Date, now: Date) throws {
        try home.store.write { db in
            try db.query("""
                UPDATE jobs SET state = 'waiting', last_error = ?, next_attempt_ms = ?, claimed_by = NULL, claimed_at = NULL, updated_at = ?
                WHERE id = ? AND state = 'running'
                """, [.text(error), .integer(Self.milliseconds(due)), .text(Timestamp.string(now)), .integer(job.id)])
        }
    }

    /// The wait before the next run after `attempts` transient failures: 5 s doubling, at most 10 minutes.
    static func backoff(attempts: Int) -> TimeInterval {
        min(600, 5 * Double(1 << max(0, min(attempts - 1, 10))))
    }

    /// Runs a stopped job again from the step it reached (failed, cancelled, or waiting: now).
    @discardableResult
    public func retry(id: Int64, now: Date) throws -> Job {
        try home.store.write { db in
            let job = try Self.job(id: id, db: db)
            guard job.state == .failed || job.state == .cancelled || job.state == .waiting else { throw JobError.notRetryable(id: id, state: job.state) }
            try db.query("""
                UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_ms = NULL, finished_at = NULL, updated_at = ? WHERE id = ?
                """, [.text(Timestamp.string(now)), .integer(id)])
            return try Self.job(id: id, db: db)
        }
    }

    /// Cancels a job that has not finished. A running one stops before its next step (what a step
    /// already did at Apple stays done).
    @discardableResult
    public func cancel(id: Int64, now: Date) throws -> Job {
        try home.store.write { db in
            let job = try Self.job(id: id, db: db)
            guard !job.state.isFinished else { throw JobError.alreadyFinished(id: id, state: job.state) }
            try db.query("""
                UPDATE jobs SET state = 'cancelled', claimed_by = NULL, claimed_at = NULL, next_attempt_ms = NULL, updated_at = ?, finished_at = ?
                WHERE id = ?
                """, [.text(Timestamp.string(now)), .text(Timestamp.string(now)), .integer(id)])
            return try Self.job(id: id, db: db)
        }
    }

    /// Whether job `id` is still this process's to run (not cancelled meanwhile).
    static func isStillMine(_ id: Int64, db: SQLiteConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM jobs WHERE id = ? AND state = 'running' AND claimed_by = ?", [.integer(id), .integer(Int64(CurrentProcess.id))]) != nil
    }
}
