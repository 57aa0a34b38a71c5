#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// One queued report handed to a processor.
struct CrashQueueItem: Sendable {
    var reportID: Int64
    /// The queue row's generation when claimed: a requeue while processing bumps it, so the
    /// result of the older run does not remove the newer request.
    var generation: Int64
    /// How many runs have started on it, this one included.
    var attempts: Int64
    var reason: String
}

extension CrashStore {
    /// Runs that may start on one report: a report that stops the processor this often (it was
    /// killed, or ran out of memory, each time) is marked unreadable instead of stopping it forever.
    static let maxAttempts: Int64 = 3
    /// A claim older than this is taken over even if its process seems alive (a reused pid).
    static let staleClaim: TimeInterval = 600

    /// Reports waiting to be processed.
    public func queuedCount() throws -> Int {
        try home.store.read { db in Int(try db.queryOne("SELECT count(*) FROM crash_queue")?.int(0) ?? 0) }
    }

    /// Queues reports (again); a report already queued gets a new generation, so a run in progress
    /// does not take the new request with it.
    static func enqueue(_ ids: [Int64], reason: String, now: Date, db: SQLiteConnection) throws {
        for id in ids {
            try db.query("""
                INSERT INTO crash_queue (report_id, queued_at, reason) VALUES (?, ?, ?)
                ON CONFLICT (report_id) DO UPDATE SET generation = generation + 1, reason = excluded.reason,
                    queued_at = excluded.queued_at, claimed_by = NULL, claimed_at = NULL, attempts = 0
                """, [.integer(id), .text(Timestamp.string(now)), .text(reason)])
        }
    }

    /// Queues the reports that lack any of `keys`' UUIDs, inside the transaction that archives
    /// them (`release`, `add-symbols`): they are symbolicated and regrouped again.
    static func requeue(forSymbols keys: [SymbolKey], now: Date, db: SQLiteConnection) throws {
        var ids = Set<Int64>()
        for uuid in Set(keys.map(\.uuid.uuidString)) {
            for row in try db.query("SELECT report_id FROM crash_images WHERE uuid = ? AND has_symbols = 0", [.text(uuid)]) {
                if let id = row.int(0) { ids.insert(id) }
            }
        }
        try enqueue(ids.sorted(), reason: "symbols", now: now, db: db)
    }

    /// Queues the reports whose app images match release `id`'s executables, inside the
    /// transaction that publishes it, so they are linked to it.
    static func requeue(forRelease id: Int64, now: Date, db: SQLiteConnection) throws {
        let rows = try db.query("""
            SELECT DISTINCT i.report_id FROM crash_images i JOIN release_slices s ON s.uuid = i.uuid
            WHERE s.release_id = ? AND (i.has_symbols = 0 OR NOT EXISTS (SELECT 1 FROM crash_reports r WHERE r.id = i.report_id AND r.release_id IS NOT NULL))
            """, [.integer(id)])
        try enqueue(rows.compactMap { $0.int(0) }, reason: "release", now: now, db: db)
    }

    /// Queues every report again (after an upgrade that reads more, say).
    @discardableResult
    public func requeueAll(now: Date) throws -> Int {
        try home.store.write { db in
            let ids = try db.query("SELECT id FROM crash_reports ORDER BY id").compactMap { $0.int(0) }
            try Self.enqueue(ids, reason: "requeue", now: now, db: db)
            return ids.count
        }
    }

    /// Takes up to `limit` reports off the queue for this process. Claims of processes that are
    /// gone (killed, restarted) are taken over.
    func claim(limit: Int, now: Date, only: Set<Int64>? = nil) throws -> [CrashQueueItem] {
        let me = Int64(CurrentProcess.id)
        let stamp = Timestamp.string(now)
        return try home.store.write { db in
            var items: [CrashQueueItem] = []
            let rows = try db.query("SELECT \(Self.queueColumns.list) FROM crash_queue ORDER BY report_id LIMIT ?", [.integer(Int64(max(limit, 1) * 8))])
            for found in rows where items.count < limit {
                let row = Self.queueColumns.reader(found)
                let id = try row.int("report_id"), generation = try row.int("generation")
                if let only, !only.contains(id) { continue }
                if let owner = try row.optionalInt("claimed_by") {
                    let claimedAt = try row.optionalDate("claimed_at") ?? .distantPast
                    let stale = now.timeIntervalSince(claimedAt) > Self.staleClaim
                    if owner == me || (Archive.isAlive(Int32(truncatingIfNeeded: owner)) && !stale) { continue }
                }
                let attempts = try row.int("attempts") + 1
                try db.query("UPDATE crash_queue SET attempts = ?, claimed_by = ?, claimed_at = ? WHERE report_id = ?",
                             [.integer(attempts), .integer(me), .text(stamp), .integer(id)])
                items.append(CrashQueueItem(reportID: id, generation: generation, attempts: attempts, reason: try row.text("reason")))
            }
            return items
        }
    }

    /// The columns `claim` reads from the queue, shared with its decoder.
    static let queueColumns = SQLColumns(["report_id", "generation", "attempts", "reason", "claimed_by", "claimed_at"])

    /// Removes a processed item, unless it was queued again meanwhile (then it is released for
    /// the next run).
    static func complete(_ item: CrashQueueItem, db: SQLiteConnection) throws {
        try db.query("DELETE FROM crash_queue WHERE report_id = ? AND generation = ?", [.integer(item.reportID), .integer(item.generation)])
        try db.query("UPDATE crash_queue SET claimed_by = NULL, claimed_at = NULL WHERE report_id = ?", [.integer(item.reportID)])
    }
}
