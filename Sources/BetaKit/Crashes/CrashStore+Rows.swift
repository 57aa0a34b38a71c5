#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Each type the crash store reads has one column list, shared by its SELECTs and its decoder
// (`SQLColumns`): a value missing or of the wrong type is an error naming the column, never a
// silent zero.

extension CrashRecord {
    /// The columns of `SELECT … \(CrashRecord.source)`.
    static let columns = SQLColumns([
        "r.id", "r.blob", "r.size", "r.file_name", "r.received_at", "r.last_received_at", "r.status", "r.format", "r.bug_type",
        "r.processed_at", "r.error", "r.process_name", "r.bundle_id", "r.app_version", "r.app_build", "r.os_version",
        "r.hardware_model", "r.incident_identifier", "r.crashed_at", "r.exception_type", "r.summary", "r.signature_key",
        "r.release_id", "r.tester_id", "r.device_udid", "t.name AS tester_name",
        "(SELECT count(*) FROM crash_uploads u WHERE u.report_id = r.id) AS upload_count",
        "(SELECT group_concat(i.uuid || ' ' || i.arch || ' ' || i.name, char(10)) FROM crash_images i WHERE i.report_id = r.id AND i.has_symbols = 0) AS missing_images",
    ])

    /// The tables `columns` come from.
    static let source = "FROM crash_reports r LEFT JOIN testers t ON t.id = r.tester_id"

    /// The SELECT every report query starts with.
    static let select = "SELECT \(columns.list) \(source)"

    /// Decodes a row of `select`.
    init(row: SQLiteRow) throws(SQLRowError) {
        let row = Self.columns.reader(row)
        let missing = (try row.optionalText("missing_images") ?? "").split(separator: "\n").map { line -> CrashMissingImage in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return CrashMissingImage(uuid: parts[0], architecture: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil,
                                     name: parts.count > 2 ? parts[2] : "")
        }
        self.init(id: try row.int("r.id"), sha256: try row.text("r.blob"), size: try row.int("r.size"), fileName: try row.optionalText("r.file_name"),
                  receivedAt: try row.date("r.received_at"), lastReceivedAt: try row.date("r.last_received_at"),
                  status: try row.required("r.status", as: CrashStatus.self), format: try row.optionalText("r.format"),
                  bugType: try row.optionalText("r.bug_type"), processedAt: try row.optionalDate("r.processed_at"), error: try row.optionalText("r.error"),
                  processName: try row.optionalText("r.process_name"), bundleID: try row.optionalText("r.bundle_id"),
                  appVersion: try row.optionalText("r.app_version"), appBuild: try row.optionalText("r.app_build"),
                  osVersion: try row.optionalText("r.os_version"), hardwareModel: try row.optionalText("r.hardware_model"),
                  incidentIdentifier: try row.optionalText("r.incident_identifier"), crashedAt: try row.optionalText("r.crashed_at"),
                  exceptionType: try row.optionalText("r.exception_type"), summary: try row.optionalText("r.summary"),
                  signatureKey: try row.optionalText("r.signature_key"), releaseID: try row.optionalInt("r.release_id"),
                  testerID: try row.optionalInt("r.tester_id"), testerName: try row.optionalText("tester_name"),
                  deviceUDID: try row.optionalText("r.device_udid"), missingSymbols: missing, uploadCount: Int(try row.int("upload_count")))
    }
}

extension CrashUpload {
    /// The columns of `SELECT … FROM crash_uploads`.
    static let columns = SQLColumns(["id", "report_id", "received_at", "source", "key_id", "tester_id", "user_id", "contact", "description", "file_name"])

    /// Decodes a row of `SELECT \(columns.list) FROM crash_uploads`.
    init(row: SQLiteRow) throws(SQLRowError) {
        let row = Self.columns.reader(row)
        self.init(id: try row.int("id"), reportID: try row.int("report_id"), receivedAt: try row.date("received_at"),
                  source: try row.required("source", as: CrashSource.self), keyID: try row.optionalInt("key_id"),
                  testerID: try row.optionalInt("tester_id"), userID: try row.optionalText("user_id"), contact: try row.optionalText("contact"),
                  description: try row.optionalText("description"), fileName: try row.optionalText("file_name"))
    }
}

extension CrashGroup {
    /// The columns of the groups query: a group's own, then what its reports add up to.
    static let columns = SQLColumns([
        "g.signature_key", "g.exception_type", "g.frames", "g.title", "count(r.id) AS report_count",
        "min(r.received_at) AS first_seen_at", "max(r.received_at) AS last_seen_at",
        "group_concat(DISTINCT r.release_id) AS release_ids", "group_concat(DISTINCT r.tester_id) AS tester_ids",
        "(SELECT x.id FROM crash_reports x WHERE x.signature_key = g.signature_key ORDER BY x.status = 'symbolicated' DESC, x.received_at DESC, x.id DESC LIMIT 1) AS representative_id",
    ])

    /// Decodes a row of the groups query.
    init(row: SQLiteRow) throws(SQLRowError) {
        let row = Self.columns.reader(row)
        func ids(_ text: String?) -> [Int64] { (text ?? "").split(separator: ",").compactMap { Int64($0) }.sorted() }
        self.init(signatureKey: try row.text("g.signature_key"), exceptionType: try row.text("g.exception_type"),
                  frames: try row.text("g.frames").split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty },
                  title: try row.text("g.title"), count: Int(try row.int("report_count")),
                  firstSeenAt: try row.date("first_seen_at"), lastSeenAt: try row.date("last_seen_at"),
                  releaseIDs: ids(try row.optionalText("release_ids")), testerIDs: ids(try row.optionalText("tester_ids")),
                  representativeID: try row.int("representative_id"))
    }
}

extension CrashKey {
    /// The columns of `SELECT … FROM crash_keys`.
    static let columns = SQLColumns(["id", "bundle_id", "key", "created_at", "revoked_at"])

    /// Decodes a row of `SELECT \(columns.list) FROM crash_keys`.
    init(row: SQLiteRow) throws(SQLRowError) {
        let row = Self.columns.reader(row)
        self.init(id: try row.int("id"), bundleID: try row.text("bundle_id"), key: try row.text("key"),
                  createdAt: try row.date("created_at"), revokedAt: try row.optionalDate("revoked_at"))
    }
}
