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

    /// The columns of a tester's payload object.
    static let testerColumns = SQLColumns(["name", "email"])
    /// The columns of a device's name and owner, read by `deviceRegistered`.
    static let deviceColumns = SQLColumns(["name", "tester_id"])
    /// The columns of a profile's payload.
    static let profileColumns = SQLColumns(["name", "type", "expires_at", "device_count", "application_identifier"])
    /// The columns of a crash group's payload.
    static let crashGroupColumns = SQLColumns(["title", "exception_type", "first_seen_at"])
    /// The columns of a crash report's payload.
    static let crashReportColumns = SQLColumns(["bundle_id", "app_version", "app_build", "release_id", "tester_id"])

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
        guard let id, let found = try db.queryOne("SELECT \(testerColumns.list) FROM testers WHERE id = ?", [.integer(id)]) else { return (.null, nil) }
        let row = testerColumns.reader(found)
        let name = try row.text("name")
        return (.object([("id", .int(id)), ("name", .string(name)), ("email", .optional(try row.optionalText("email")))]), name)
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
        let row = try db.queryOne("SELECT \(deviceColumns.list) FROM devices WHERE udid = ? COLLATE NOCASE", [.text(udid)]).map(deviceColumns.reader)
        try device(.deviceRegistered, udid: udid, name: try row?.text("name"), family: family.rawValue, testerID: try row?.optionalInt("tester_id"), db: db, now: now,
                   extra: [("apple_device_id", .string(appleID))])
    }

    /// `profile.imported` or `profile.expiring` for profile `uuid`.
    static func profile(_ event: WebhookEvent, uuid: String, db: SQLiteConnection, now: Date, extra: [(String, WebhookData)] = []) throws {
        guard let found = try db.queryOne("SELECT \(profileColumns.list) FROM profiles WHERE uuid = ?", [.text(uuid)]) else { return }
        let row = profileColumns.reader(found)
        let name = try row.text("name"), expiresAt = try row.text("expires_at")
        let summary = event == .profileImported ? "Profile \(name) was imported" : "Profile \(name) expires on \(String(expiresAt.prefix(10)))"
        try enqueue(event, [("profile", .object([("uuid", .string(uuid)), ("name", .string(name)), ("type", .string(try row.text("type"))),
                                                 ("expires_at", .string(expiresAt)), ("device_count", .optional(try row.optionalInt("device_count"))),
                                                 ("application_identifier", .optional(try row.optionalText("application_identifier")))]))] + extra,
                    summary: summary, path: "/admin/profiles/\(uuid)", db: db, now: now)
    }

    /// A crash-group event for the group `signature` and the report that caused it.
    static func crash(_ event: WebhookEvent, signature: String, reportID: Int64, db: SQLiteConnection, now: Date) throws {
        guard let found = try db.queryOne("SELECT \(crashGroupColumns.list) FROM crash_groups WHERE signature_key = ?",
                                          [.text(signature)]) else { return }
        let group = crashGroupColumns.reader(found)
        let report = try db.queryOne("SELECT \(crashReportColumns.list) FROM crash_reports WHERE id = ?", [.integer(reportID)])
            .map(crashReportColumns.reader)
        let (tester, _) = try testerFields(try report?.optionalInt("tester_id"), db: db)
        let title = try group.text("title")
        let verb = switch event {
        case .crashNewGroup: "New crash"
        case .crashRegressed: "Crash seen again in a newer build"
        default: "Crash symbolicated"
        }
        let path = event == .crashSymbolicated ? "/admin/crashes/\(reportID)" : "/admin/crashes/groups/\(Self.pathComponent(signature))"
        try enqueue(event, [
            ("group", .object([("signature", .string(signature)), ("title", .string(title)), ("exception_type", .string(try group.text("exception_type"))),
                               ("first_seen_at", .string(try group.text("first_seen_at"))),
                               ("url", .string(try publicURL(db) + "/admin/crashes/groups/\(Self.pathComponent(signature))"))])),
            ("report", .object([("id", .int(reportID)), ("bundle_id", .optional(try report?.optionalText("bundle_id"))),
                                ("app_version", .optional(try report?.optionalText("app_version"))),
                                ("app_build", .optional(try report?.optionalText("app_build"))),
                                ("release_id", .optional(try report?.optionalInt("release_id")))])),
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
