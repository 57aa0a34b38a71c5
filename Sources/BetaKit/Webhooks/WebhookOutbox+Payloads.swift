#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The payloads of each kind of event, built from the rows of the change's own transaction. They
/// carry ids, names and absolute links, never a tester's secret link.
extension WebhookOutbox {
    /// The columns of a release's payload, shared with its decoder.
    static let releaseColumns = SQLColumns(["bundle_id", "display_name", "version", "build", "notes", "created_at", "revoked_at", "source_name",
                                            "(SELECT group_concat(name, ',') FROM release_groups WHERE release_id = releases.id) AS group_names"])

    /// `release.published`, `release.revoked` or `release.downloaded` for release `id`.
    static func release(_ event: WebhookEvent, id: Int64, db: SQLiteConnection, now: Date, extra: [(String, WebhookData)] = []) throws {
        guard let found = try db.queryOne("SELECT \(Self.releaseColumns.list) FROM releases WHERE id = ?", [.integer(id)]) else { return }
        let row = Self.releaseColumns.reader(found)
        let base = try publicURL(db)
        let bundleID = try row.text("bundle_id"), displayName = try row.optionalText("display_name")
        let version = try row.optionalText("version"), build = try row.optionalText("build")
        let name = displayName ?? bundleID
        let versionText = [version, build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        let groups = (try row.optionalText("group_names") ?? "").split(separator: ",").map { WebhookData.string(String($0)) }
        var fields: [(String, WebhookData)] = [
            ("release", .object([
                ("id", .int(id)), ("bundle_id", .optional(bundleID)), ("name", .string(name)),
                ("version", .optional(version)), ("build", .optional(build)), ("notes", .optional(try row.optionalText("notes"))),
                ("groups", .array(groups)), ("created_at", .optional(try row.text("created_at"))), ("revoked_at", .optional(try row.optionalText("revoked_at"))),
                ("source_name", .optional(try row.text("source_name"))),
            ])),
            ("install_page_pattern", .string(base + "/t/{tester_token}")),
        ]
        fields += extra
        let verb = event == .releasePublished ? "published" : event == .releaseRevoked ? "revoked" : "downloaded"
        try enqueue(event, fields, summary: "\(versionText.isEmpty ? name : "\(name) \(versionText)") was \(verb)",
                    path: "/admin/releases/\(id)", db: db, now: now)
    }

    /// The `download` object of `release.downloaded`: who, on which device.
    static func downloadFields(testerID: Int64?, udid: String?, db: SQLiteConnection) throws -> WebhookData {
        let (tester, _) = try testerFields(testerID, db: db)
        let name = try udid.flatMap { try db.queryOne("SELECT name FROM devices WHERE udid = ?", [.text($0)])?.string(0) }
        return .object([("tester", tester), ("device", udid.map { .object([("udid", .string($0)), ("name", .optional(name))]) } ?? .null)])
    }

    /// The `tester` object of a payload (never the tester's token).
    static func testerFields(_ id: Int64?, db: SQLiteConnection) throws -> (WebhookData, String?) {
        guard let id, let row = try db.queryOne("SELECT name, email FROM testers WHERE id = ?", [.integer(id)]) else { return (.null, nil) }
        return (.object([("id", .int(id)), ("name", .optional(row.string(0))), ("email", .optional(row.string(1)))]), row.string(0))
    }

    /// `tester.added`.
    static func testerAdded(id: Int64, db: SQLiteConnection, now: Date) throws {
        let (tester, name) = try testerFields(id, db: db)
        try enqueue(.testerAdded, [("tester", tester)], summary: "\(name ?? "A tester") was added", path: "/admin/testers/\(id)", db: db, now: now)
    }

    /// A device event (`device.enrolled`, `device.approved`, `device.registered`, `device.ready`).
    static func device(_ event: WebhookEvent, udid: String, name: String?, family: String?, testerID: Int64?, db: SQLiteConnection, now: Date,
                       extra: [(String, WebhookData)] = []) throws {
        let (tester, testerName) = try testerFields(testerID, db: db)
        let label = (name?.isEmpty == false ? name : nil) ?? udid
        let verb = switch event {
        case .deviceEnrolled: "was enrolled"
        case .deviceApproved: "was approved"
        case .deviceRegistered: "was registered with Apple"
        default: "is ready to install"
        }
        let owner = testerName.map { " (\($0))" } ?? ""
        try enqueue(event, [("device", .object([("udid", .string(udid)), ("name", .optional(name)), ("family", .optional(family))])),
                            ("tester", tester)] + extra,
                    summary: "\(label)\(owner) \(verb)", path: testerID.map { "/admin/testers/\($0)" } ?? "/admin/devices", db: db, now: now)
    }

    /// `device.registered`: the roster's device `udid` was registered with Apple as `appleID`.
    static func deviceRegistered(udid: String, appleID: String, family: DeviceFamily, db: SQLiteConnection, now: Date) throws {
        let row = try db.queryOne("SELECT name, tester_id FROM devices WHERE udid = ? COLLATE NOCASE", [.text(udid)])
        try device(.deviceRegistered, udid: udid, name: row?.string(0), family: family.rawValue, testerID: row?.int(1), db: db, now: now,
                   extra: [("apple_device_id", .string(appleID))])
    }

    /// `profile.imported` or `profile.expiring` for profile `uuid`.
    static func profile(_ event: WebhookEvent, uuid: String, db: SQLiteConnection, now: Date, extra: [(String, WebhookData)] = []) throws {
        guard let row = try db.queryOne("SELECT name, type, expires_at, device_count, application_identifier FROM profiles WHERE uuid = ?",
                                        [.text(uuid)]) else { return }
        let name = row.string(0) ?? uuid
        let summary = event == .profileImported ? "Profile \(name) was imported" : "Profile \(name) expires on \(String((row.string(2) ?? "").prefix(10)))"
        try enqueue(event, [("profile", .object([("uuid", .string(uuid)), ("name", .string(name)), ("type", .optional(row.string(1))),
                                                 ("expires_at", .optional(row.string(2))), ("device_count", .optional(row.int(3))),
                                                 ("application_identifier", .optional(row.string(4)))]))] + extra,
                    summary: summary, path: "/admin/profiles/\(uuid)", db: db, now: now)
    }

    /// A crash-group event for the group `signature` and the report that caused it.
    static func crash(_ event: WebhookEvent, signature: String, reportID: Int64, db: SQLiteConnection, now: Date) throws {
        guard let group = try db.queryOne("SELECT title, exception_type, first_seen_at FROM crash_groups WHERE signature_key = ?",
                                          [.text(signature)]) else { return }
        let report = try db.queryOne("SELECT bundle_id, app_version, app_build, release_id, tester_id FROM crash_reports WHERE id = ?",
                                     [.integer(reportID)])
        let (tester, _) = try testerFields(report?.int(4), db: db)
        let title = group.string(0) ?? "crash"
        let verb = switch event {
        case .crashNewGroup: "New crash"
        case .crashRegressed: "Crash seen again in a newer build"
        default: "Crash symbolicated"
        }
        let path = event == .crashSymbolicated ? "/admin/crashes/\(reportID)" : "/admin/crashes/groups/\(Self.pathComponent(signature))"
        try enqueue(event, [
            ("group", .object([("signature", .string(signature)), ("title", .string(title)), ("exception_type", .optional(group.string(1))),
                               ("first_seen_at", .optional(group.string(2))),
                               ("url", .string(try publicURL(db) + "/admin/crashes/groups/\(Self.pathComponent(signature))"))])),
            ("report", .object([("id", .int(reportID)), ("bundle_id", .optional(report?.string(0))), ("app_version", .optional(report?.string(1))),
                                ("app_build", .optional(report?.string(2))), ("release_id", .optional(report?.int(3)))])),
            ("tester", tester),
        ], summary: "\(verb): \(title)", path: path, db: db, now: now)
    }

    /// `job.failed`: a background job (named `job`) gave up with `error`.
    static func jobFailed(job: String, subject: String?, error: String, path: String?, db: SQLiteConnection, now: Date) throws {
        try enqueue(.jobFailed, [("job", .object([("name", .string(job)), ("subject", .optional(subject)), ("error", .string(error))]))],
                    summary: "\(job) failed: \(error)", path: path, db: db, now: now)
    }

    /// Whether build `a` is newer than `b`.
    static func isNewer(_ a: String, than b: String) -> Bool { BuildNumbers.isNewer(a, than: b) }

    static func pathComponent(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (48 ... 57).contains(byte) || (65 ... 90).contains(byte) || (97 ... 122).contains(byte) || byte == 45 || byte == 46 || byte == 95 {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
