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
    /// Reports matching `filter`, newest first.
    public func reports(_ filter: CrashFilter = CrashFilter()) throws -> [CrashRecord] {
        var conditions: [String] = []
        var bindings: [SQLiteValue] = []
        if let release = filter.releaseID { conditions.append("r.release_id = ?"); bindings.append(.integer(release)) }
        if let key = filter.signatureKey { conditions.append("r.signature_key = ?"); bindings.append(.text(key)) }
        if let status = filter.status { conditions.append("r.status = ?"); bindings.append(.text(status.rawValue)) }
        if let tester = filter.testerID { conditions.append("r.tester_id = ?"); bindings.append(.integer(tester)) }
        var sql = CrashRecord.select
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY r.received_at DESC, r.id DESC"
        if let limit = filter.limit { sql += " LIMIT \(max(0, limit))" }
        let query = sql
        return try home.store.read { db in try db.query(query, bindings).map { row throws(SQLRowError) in try CrashRecord(row: row) } }
    }

    /// Report `id`.
    public func report(id: Int64) throws -> CrashRecord {
        let found = try home.store.read { db in
            try db.queryOne("\(CrashRecord.select) WHERE r.id = ?", [.integer(id)]).map { row throws(SQLRowError) in try CrashRecord(row: row) }
        }
        guard let found else { throw CrashError.unknownReport(String(id)) }
        return found
    }

    /// Every upload of report `id`, oldest first.
    public func uploads(of id: Int64) throws -> [CrashUpload] {
        try home.store.read { db in
            try db.query("SELECT \(CrashUpload.columns.list) FROM crash_uploads WHERE report_id = ? ORDER BY id", [.integer(id)])
                .map { row throws(SQLRowError) in try CrashUpload(row: row) }
        }
    }

    /// Every group with at least one report, the most recently seen first; with `testerID`, only
    /// groups holding that tester's reports.
    public func groups(testerID: Int64? = nil) throws -> [CrashGroup] {
        var sql = "SELECT \(CrashGroup.columns.list) FROM crash_groups g JOIN crash_reports r ON r.signature_key = g.signature_key"
        var bindings: [SQLiteValue] = []
        if let testerID {
            sql += " WHERE g.signature_key IN (SELECT signature_key FROM crash_reports WHERE tester_id = ?)"
            bindings.append(.integer(testerID))
        }
        sql += " GROUP BY g.signature_key ORDER BY max(r.received_at) DESC, g.signature_key"
        let query = sql
        return try home.store.read { db in try db.query(query, bindings).map { row throws(SQLRowError) in try CrashGroup(row: row) } }
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
}
