#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Which crash reports to list.
public struct CrashFilter: Sendable, Equatable {
    /// Only reports linked to this release.
    public var releaseID: Int64?
    /// Only reports in this group (signature key).
    public var signatureKey: String?
    /// Only reports with this status.
    public var status: CrashStatus?
    /// Only reports linked to this tester.
    public var testerID: Int64?
    /// At most this many, newest first.
    public var limit: Int?

    /// A filter; every field left nil matches everything.
    public init(releaseID: Int64? = nil, signatureKey: String? = nil, status: CrashStatus? = nil, testerID: Int64? = nil, limit: Int? = nil) {
        self.releaseID = releaseID
        self.signatureKey = signatureKey
        self.status = status
        self.testerID = testerID
        self.limit = limit
    }
}

extension CrashStore {
    static let recordColumns = """
        r.id, r.blob, r.size, r.file_name, r.received_at, r.last_received_at, r.status, r.format, r.bug_type, r.processed_at, r.error,
        r.process_name, r.bundle_id, r.app_version, r.app_build, r.os_version, r.hardware_model, r.incident_identifier, r.crashed_at,
        r.exception_type, r.summary, r.signature_key, r.release_id, r.tester_id, r.device_udid, t.name,
        (SELECT count(*) FROM crash_uploads u WHERE u.report_id = r.id),
        (SELECT group_concat(i.uuid || ' ' || i.arch || ' ' || i.name, char(10)) FROM crash_images i WHERE i.report_id = r.id AND i.has_symbols = 0)
        FROM crash_reports r LEFT JOIN testers t ON t.id = r.tester_id
        """

    /// Reports matching `filter`, newest first.
    public func reports(_ filter: CrashFilter = CrashFilter()) throws -> [CrashRecord] {
        var conditions: [String] = []
        var bindings: [SQLiteValue] = []
        if let release = filter.releaseID { conditions.append("r.release_id = ?"); bindings.append(.integer(release)) }
        if let key = filter.signatureKey { conditions.append("r.signature_key = ?"); bindings.append(.text(key)) }
        if let status = filter.status { conditions.append("r.status = ?"); bindings.append(.text(status.rawValue)) }
        if let tester = filter.testerID { conditions.append("r.tester_id = ?"); bindings.append(.integer(tester)) }
        var sql = "SELECT \(Self.recordColumns)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY r.received_at DESC, r.id DESC"
        if let limit = filter.limit { sql += " LIMIT \(max(0, limit))" }
        let query = sql
        return try home.store.read { db in try db.query(query, bindings).map(Self.record) }
    }

    /// Report `id`.
    public func report(id: Int64) throws -> CrashRecord {
        let found = try home.store.read { db in
            try db.queryOne("SELECT \(Self.recordColumns) WHERE r.id = ?", [.integer(id)]).map(Self.record)
        }
        guard let found else { throw CrashError.unknownReport(String(id)) }
        return found
    }

    /// Every upload of report `id`, oldest first.
    public func uploads(of id: Int64) throws -> [CrashUpload] {
        try home.store.read { db in
            try db.query("SELECT id, report_id, received_at, source, key_id, tester_id, user_id, contact, description, file_name FROM crash_uploads WHERE report_id = ? ORDER BY id",
                         [.integer(id)]).map { row in
                CrashUpload(id: row.int(0) ?? 0, reportID: row.int(1) ?? 0, receivedAt: row.string(2).flatMap(Timestamp.date) ?? .distantPast,
                            source: row.string(3).flatMap(CrashSource.init(rawValue:)) ?? .raw, keyID: row.int(4), testerID: row.int(5),
                            userID: row.string(6), contact: row.string(7), description: row.string(8), fileName: row.string(9))
            }
        }
    }

    /// Every group with at least one report, the most recently seen first; with `testerID`, only
    /// groups holding that tester's reports.
    public func groups(testerID: Int64? = nil) throws -> [CrashGroup] {
        var sql = """
            SELECT g.signature_key, g.exception_type, g.frames, g.title, count(r.id), min(r.received_at), max(r.received_at),
                   group_concat(DISTINCT r.release_id), group_concat(DISTINCT r.tester_id),
                   (SELECT x.id FROM crash_reports x WHERE x.signature_key = g.signature_key
                    ORDER BY x.status = 'symbolicated' DESC, x.received_at DESC, x.id DESC LIMIT 1)
            FROM crash_groups g JOIN crash_reports r ON r.signature_key = g.signature_key
            """
        var bindings: [SQLiteValue] = []
        if let testerID {
            sql += " WHERE g.signature_key IN (SELECT signature_key FROM crash_reports WHERE tester_id = ?)"
            bindings.append(.integer(testerID))
        }
        sql += " GROUP BY g.signature_key ORDER BY max(r.received_at) DESC, g.signature_key"
        let query = sql
        return try home.store.read { db in try db.query(query, bindings).map(Self.group) }
    }

    /// The group with signature key `key`.
    public func group(key: String) throws -> CrashGroup {
        guard let found = try groups().first(where: { $0.signatureKey == key }) else { throw CrashError.unknownGroup(key) }
        return found
    }

    /// Report `id` symbolicated with the archive's symbols as they are now; nil when it is not a
    /// crash (low-memory, other, unreadable).
    public func symbolicatedReport(id: Int64) throws -> SymbolicatedReport? {
        let bytes = try rawBytes(of: id)
        guard let document = try? CrashReportDocument(bytes: bytes), document.format.isCrash,
              let report = try? document.crashReport() else { return nil }
        var symbolicator = Symbolicator(locator: ArchiveSymbolFileLocator(archive: archive), cache: try SymbolIndexCache(directory: home.symbolIndexPath))
        symbolicator.missingAppSymbolsReason = "no dSYM with this UUID is archived"
        return try symbolicator.symbolicate(report)
    }

    /// Report `id` read as a low-memory report; nil when it is not one.
    public func lowMemoryReport(id: Int64) throws -> JetsamReport? {
        let bytes = try rawBytes(of: id)
        guard let document = try? CrashReportDocument(bytes: bytes), document.format == .jetsam,
              case .jetsam(let report)? = try? document.read() else { return nil }
        return report
    }

    static func record(_ row: SQLiteRow) -> CrashRecord {
        let missing = (row.string(27) ?? "").split(separator: "\n").map { line -> CrashMissingImage in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return CrashMissingImage(uuid: parts[0], architecture: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil,
                                     name: parts.count > 2 ? parts[2] : "")
        }
        return CrashRecord(id: row.int(0) ?? 0, sha256: row.string(1) ?? "", size: row.int(2) ?? 0, fileName: row.string(3),
                           receivedAt: row.string(4).flatMap(Timestamp.date) ?? .distantPast,
                           lastReceivedAt: row.string(5).flatMap(Timestamp.date) ?? .distantPast,
                           status: row.string(6).flatMap(CrashStatus.init(rawValue:)) ?? .queued, format: row.string(7), bugType: row.string(8),
                           processedAt: row.string(9).flatMap(Timestamp.date), error: row.string(10), processName: row.string(11),
                           bundleID: row.string(12), appVersion: row.string(13), appBuild: row.string(14), osVersion: row.string(15),
                           hardwareModel: row.string(16), incidentIdentifier: row.string(17), crashedAt: row.string(18),
                           exceptionType: row.string(19), summary: row.string(20), signatureKey: row.string(21), releaseID: row.int(22),
                           testerID: row.int(23), testerName: row.string(25), deviceUDID: row.string(24), missingSymbols: missing,
                           uploadCount: Int(row.int(26) ?? 0))
    }

    static func group(_ row: SQLiteRow) -> CrashGroup {
        func ids(_ text: String?) -> [Int64] { (text ?? "").split(separator: ",").compactMap { Int64($0) }.sorted() }
        return CrashGroup(signatureKey: row.string(0) ?? "", exceptionType: row.string(1) ?? "",
                          frames: (row.string(2) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty },
                          title: row.string(3) ?? "", count: Int(row.int(4) ?? 0),
                          firstSeenAt: row.string(5).flatMap(Timestamp.date) ?? .distantPast,
                          lastSeenAt: row.string(6).flatMap(Timestamp.date) ?? .distantPast,
                          releaseIDs: ids(row.string(7)), testerIDs: ids(row.string(8)), representativeID: row.int(9) ?? 0)
    }
}
