#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization

/// Works through the crash queue: reads each report, symbolicates crashes with the archived
/// symbols, links reports to their release, tester and device, and groups them by signature.
///
/// Synchronous and blocking (SQLite, files, symbolication): a server calls `processNext` from its
/// blocking-work pool, the CLI directly. Several processes may run one at once; each report is
/// claimed by one of them, and a claim left by a killed process is taken over.
public final class CrashProcessor: Sendable {
    /// The store it works on.
    public let store: CrashStore
    private let cache: SymbolIndexCache
    /// The symbolicator and the archive's symbol count it was made for: when symbols are added a
    /// new one is made, so nothing it remembered as missing stays missing.
    private let current = Mutex<(symbolicator: Symbolicator, symbols: Int64)?>(nil)

    /// A processor for `store`, with symbol indexes cached in the home's `cache/symbols/`.
    public init(store: CrashStore) throws {
        self.store = store
        cache = try SymbolIndexCache(directory: store.home.symbolIndexPath)
    }

    /// Processes up to `limit` queued reports and returns how many it processed (0 when the queue
    /// has nothing for it). Results are written in one transaction.
    @discardableResult
    public func processNext(limit: Int = 32, now: Date, only: Set<Int64>? = nil) throws -> Int {
        let items = try store.claim(limit: limit, now: now, only: only)
        guard !items.isEmpty else { return 0 }
        do {
            let symbolicator = try symbolicatorForArchive()
            var results: [(CrashQueueItem, CrashAnalysis)] = []
            for item in items {
                if item.attempts > CrashStore.maxAttempts {
                    results.append((item, CrashAnalysis(status: .unreadable, error: "processing it stopped \(CrashStore.maxAttempts) times without finishing (the processor was killed or ran out of memory); the raw report is kept")))
                    continue
                }
                results.append((item, try analyse(item.reportID, symbolicator: symbolicator)))
            }
            try store.home.store.write { db in
                for (item, analysis) in results {
                    try store.record(analysis, for: item.reportID, now: now, db: db)
                    try CrashStore.complete(item, db: db)
                    if item.attempts > CrashStore.maxAttempts, let reason = analysis.error {
                        try WebhookOutbox.jobFailed(job: "crash processing", subject: "crash report \(item.reportID)", error: reason,
                                                    path: "/admin/crashes/\(item.reportID)", db: db, now: now)
                    }
                }
            }
        } catch {
            // Released for the next run (this process's claims are never taken over otherwise).
            try? store.release(items)
            throw error
        }
        return items.count
    }

    /// Processes until the queue has nothing left for this process, at most `maxReports`.
    @discardableResult
    public func drain(maxReports: Int = 100_000, now: @Sendable () -> Date) throws -> Int {
        var total = 0
        while total < maxReports {
            let count = try processNext(limit: min(32, maxReports - total), now: now())
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// The columns `analyse` reads: where the report's raw bytes are.
    static let rawColumns = SQLColumns(["blob", "size"])

    private func analyse(_ id: Int64, symbolicator: Symbolicator) throws -> CrashAnalysis {
        let stored: (blob: String, size: Int64)?
        do {
            stored = try store.home.store.read { db in
                guard let found = try db.queryOne("SELECT \(Self.rawColumns.list) FROM crash_reports WHERE id = ?", [.integer(id)]) else { return nil }
                let row = Self.rawColumns.reader(found)
                return (try row.text("blob"), try row.int("size"))
            }
        } catch let error as SQLRowError {
            // Recorded on the report (not thrown) so the rest of the queue is still processed.
            return CrashAnalysis(status: .unreadable, error: "the report's row is damaged: \(error)")
        }
        guard let (blob, size) = stored, let path = store.rawPath(sha256: blob) else {
            return CrashAnalysis(status: .unreadable, error: "the report's row is damaged; restore the home from a backup")
        }
        let bytes: [UInt8]
        do { bytes = try CrashStore.readFile(path, limit: Int(max(size, 0))) } catch {
            return CrashAnalysis(status: .unreadable, error: "its raw bytes cannot be read (\(error)); `betactl verify` checks the archive")
        }
        return try CrashAnalysis.analyse(bytes, symbolicator: symbolicator)
    }

    /// The symbolicator to use now: a fresh one when the archive's symbols changed.
    private func symbolicatorForArchive() throws -> Symbolicator {
        let count: Int64 = try store.home.store.read { db in
            let symbols = try db.queryOne("SELECT count(*) FROM symbols")?.int(0) ?? 0
            let replaced = try db.queryOne("SELECT count(*) FROM replaced_symbols")?.int(0) ?? 0
            return symbols &* 1_000_003 &+ replaced
        }
        return current.withLock { current in
            if let current, current.symbols == count { return current.symbolicator }
            var symbolicator = Symbolicator(locator: ArchiveSymbolFileLocator(archive: store.archive), cache: cache)
            symbolicator.missingAppSymbolsReason = "no dSYM with this UUID is archived; archive it with `betactl add-symbols` and the report is symbolicated again"
            current = (symbolicator, count)
            return symbolicator
        }
    }
}

extension CrashStore {
    /// Gives claimed items back to the queue.
    func release(_ items: [CrashQueueItem]) throws {
        try home.store.write { db in
            for item in items {
                try db.query("UPDATE crash_queue SET claimed_by = NULL, claimed_at = NULL, attempts = max(attempts - 1, 0) WHERE report_id = ?",
                             [.integer(item.reportID)])
            }
        }
    }

    /// The columns `record` reads: what the report was before this processing.
    static let recordColumns = SQLColumns(["signature_key", "tester_id", "received_at", "status"])

    /// Writes what processing found, links the report and keeps its group.
    func record(_ analysis: CrashAnalysis, for id: Int64, now: Date, db: SQLiteConnection) throws {
        guard let found = try db.queryOne("SELECT \(Self.recordColumns.list) FROM crash_reports WHERE id = ?", [.integer(id)]) else { return }
        let row = Self.recordColumns.reader(found)
        let oldStatus = try row.text("status")
        let oldSignature = try row.optionalText("signature_key")
        let receivedAt = try row.text("received_at")
        try db.query("DELETE FROM crash_images WHERE report_id = ?", [.integer(id)])
        for image in analysis.images {
            try db.query("INSERT OR IGNORE INTO crash_images (report_id, uuid, arch, name, has_symbols, reason) VALUES (?, ?, ?, ?, ?, ?)",
                         [.integer(id), .text(image.uuid), .text(image.architecture), .text(Self.shortened(image.name)),
                          .integer(image.hasSymbols ? 1 : 0), .optional(image.reason)])
        }
        let release = try linkedRelease(analysis, db: db)
        let tester = try linkedTester(id, current: try row.optionalInt("tester_id"), db: db)
        let device = try linkedDevice(report: id, tester: tester, analysis: analysis, db: db)
        var groupEvent: WebhookEvent?
        if let signature = analysis.signature {
            try db.query("INSERT INTO crash_groups (signature_key, exception_type, frames, title, first_seen_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (signature_key) DO NOTHING",
                         [.text(signature.key), .text(signature.exceptionType), .text(signature.frames.joined(separator: "\n")),
                          .text(signature.description), .text(receivedAt)])
            // Only a report's first processing tells of a crash: processing it again (its symbols
            // arrived, say) may regroup it under a better signature, which is not a new crash.
            let created = db.changes > 0
            if oldSignature == nil, created {
                groupEvent = .crashNewGroup
            } else if oldSignature == nil, try Self.isRegression(build: analysis.appBuild, signature: signature.key, report: id, db: db) {
                groupEvent = .crashRegressed
            }
        }
        try db.query("""
            UPDATE crash_reports SET status = ?, format = ?, bug_type = ?, processed_at = ?, error = ?, process_name = ?, bundle_id = ?,
                app_version = ?, app_build = ?, os_version = ?, hardware_model = ?, incident_identifier = ?, crashed_at = ?,
                exception_type = ?, summary = ?, signature_key = ?, release_id = ?, tester_id = ?, device_udid = ?
            WHERE id = ?
            """, [.text(analysis.status.rawValue), .optional(analysis.format), .optional(analysis.bugType), .text(Timestamp.string(now)),
                  .optional(analysis.error), .optional(analysis.processName.map(Self.shortened)), .optional(analysis.bundleID.map(Self.shortened)),
                  .optional(analysis.appVersion.map(Self.shortened)), .optional(analysis.appBuild.map(Self.shortened)),
                  .optional(analysis.osVersion.map(Self.shortened)), .optional(analysis.hardwareModel.map(Self.shortened)),
                  .optional(analysis.incidentIdentifier.map(Self.shortened)), .optional(analysis.crashedAt.map(Self.shortened)),
                  .optional(analysis.exceptionType.map(Self.shortened)), .optional(analysis.summary.map { String($0.prefix(1024)) }),
                  .optional(analysis.signature?.key), .optional(release), .optional(tester), .optional(device), .integer(id)])
        if let event = groupEvent, let key = analysis.signature?.key {
            try WebhookOutbox.crash(event, signature: key, reportID: id, db: db, now: now)
        }
        if analysis.status == .symbolicated, oldStatus != CrashStatus.symbolicated.rawValue, let key = analysis.signature?.key {
            try WebhookOutbox.crash(.crashSymbolicated, signature: key, reportID: id, db: db, now: now)
        }
        if let oldSignature, oldSignature != analysis.signature?.key {
            // Regrouped: a group left without reports goes away.
            try db.query("DELETE FROM crash_groups WHERE signature_key = ? AND NOT EXISTS (SELECT 1 FROM crash_reports WHERE signature_key = ?)",
                         [.text(oldSignature), .text(oldSignature)])
        }
    }

    /// Whether `build` is newer than the build of the group's most recent other report (a crash
    /// seen again in a newer build than the last one it was seen in).
    static func isRegression(build: String?, signature: String, report id: Int64, db: SQLiteConnection) throws -> Bool {
        guard let build, let last = try db.queryOne("""
            SELECT app_build FROM crash_reports WHERE signature_key = ? AND id != ? AND app_build IS NOT NULL
            ORDER BY received_at DESC, id DESC LIMIT 1
            """, [.text(signature), .integer(id)])?.string(0) else { return false }
        return WebhookOutbox.isNewer(build, than: last)
    }

    /// The columns `linkedRelease` reads: a release with an executable of a report's image.
    static let sliceReleaseColumns = SQLColumns(["r.id", "r.revoked_at IS NULL AS active"])
    /// The columns `linkedTester` reads: what an SDK upload says of its user.
    static let uploaderColumns = SQLColumns(["user_id", "contact"])
    /// The columns `linkedDevice` reads: a tester's device and the OS build its enrolment reported.
    static let testerDeviceColumns = SQLColumns(["d.udid", "e.os_build"])

    /// The release whose executables have the report's app image UUIDs: the newest one still
    /// offered, else the newest.
    private func linkedRelease(_ analysis: CrashAnalysis, db: SQLiteConnection) throws -> Int64? {
        var best: (active: Bool, id: Int64)?
        for image in analysis.images {
            for found in try db.query("SELECT \(Self.sliceReleaseColumns.list) FROM release_slices s JOIN releases r ON r.id = s.release_id WHERE s.uuid = ?",
                                      [.text(image.uuid)]) {
                let row = Self.sliceReleaseColumns.reader(found)
                let candidate = (active: try row.int("active") == 1, id: try row.int("r.id"))
                if best == nil || (candidate.active ? 1 : 0, candidate.id) > (best!.active ? 1 : 0, best!.id) { best = candidate }
            }
        }
        return best?.id
    }

    /// The tester: the one whose page (or `--tester`) an upload came through, else one whose email
    /// an SDK upload's user id or contact gives.
    private func linkedTester(_ id: Int64, current: Int64?, db: SQLiteConnection) throws -> Int64? {
        if let row = try db.queryOne("SELECT tester_id FROM crash_uploads WHERE report_id = ? AND tester_id IS NOT NULL ORDER BY id LIMIT 1", [.integer(id)]),
           let tester = row.int(0) { return tester }
        for found in try db.query("SELECT \(Self.uploaderColumns.list) FROM crash_uploads WHERE report_id = ? ORDER BY id", [.integer(id)]) {
            let row = Self.uploaderColumns.reader(found)
            for candidate in [try row.optionalText("user_id"), try row.optionalText("contact")].compactMap({ $0 }) where candidate.contains("@") {
                let email = String(candidate.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                if let match = try db.queryOne("SELECT id FROM testers WHERE removed_at IS NULL AND email = ? COLLATE NOCASE", [.text(email)]),
                   let tester = match.int(0) { return tester }
            }
        }
        return current
    }

    /// The device that sent the report, when it can be told:
    /// - another report of the same incident (the same crash sent twice, say by the app's SDK and
    ///   from the tester page) already names it;
    /// - else, of the tester's devices, the only one of the report's hardware model (as the roster
    ///   or the device's enrolment gives it);
    /// - else, of those, the only one whose enrolment reported the report's OS build.
    private func linkedDevice(report id: Int64, tester: Int64?, analysis: CrashAnalysis, db: SQLiteConnection) throws -> String? {
        if let incident = analysis.incidentIdentifier.map(Self.shortened), !incident.isEmpty,
           let row = try db.queryOne("""
               SELECT device_udid FROM crash_reports WHERE incident_identifier = ? AND id != ? AND device_udid IS NOT NULL
               ORDER BY id LIMIT 1
               """, [.text(incident), .integer(id)]),
           let udid = row.string(0) {
            return udid
        }
        guard let tester, let model = analysis.hardwareModel, !model.isEmpty else { return nil }
        let rows = try db.query("""
            SELECT \(Self.testerDeviceColumns.list) FROM devices d LEFT JOIN enrolled_devices e ON e.udid = d.udid
            WHERE d.tester_id = ? AND d.removed_at IS NULL AND (d.model = ? OR e.product = ?)
            ORDER BY d.udid
            """, [.integer(tester), .text(model), .text(model)])
            .map { found throws(SQLRowError) in
                let row = Self.testerDeviceColumns.reader(found)
                return (udid: try row.text("d.udid"), osBuild: try row.optionalText("e.os_build"))
            }
        if rows.count == 1 { return rows[0].udid }
        guard rows.count > 1, let build = analysis.osVersion.flatMap(Self.osBuild) else { return nil }
        let sameBuild = rows.filter { $0.osBuild == build }
        return sameBuild.count == 1 ? sameBuild[0].udid : nil
    }

    /// The build in an OS version as reports write it: "iPhone OS 17.4.1 (21E236)" gives "21E236".
    static func osBuild(_ version: String) -> String? {
        guard version.hasSuffix(")"), let open = version.lastIndex(of: "(") else { return nil }
        let build = version[version.index(after: open) ..< version.index(before: version.endIndex)]
        return build.isEmpty ? nil : String(build)
    }
}
