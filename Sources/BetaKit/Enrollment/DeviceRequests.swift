#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The devices waiting for approval, and the rule that approves some of them by itself.
///
/// A device that enrols itself does not take a slot: it becomes an open request. Approving it
/// registers it through the roster's own insert (the per-family slot rule and its `limitReached`
/// refusal), after which it is pending for `export-devices --pending` like any enrolled device.
/// Rejecting it frees nothing, because it took nothing.
public struct DeviceRequests: Sendable {
    let home: Home

    /// Requests on `home`.
    public init(home: Home) { self.home = home }

    /// The columns of `select`, shared with `request(from:)`.
    static let columns = SQLColumns(["r.udid", "r.tester_id", "t.name AS tester_name", "r.family", "r.product", "r.os_build", "r.serial", "r.imei",
                                     "r.device_name", "r.verified", "r.requested_at"])

    static let select = "SELECT \(columns.list) FROM device_requests r JOIN testers t ON t.id = r.tester_id"

    static func request(from row: SQLiteRow) throws(SQLRowError) -> DeviceRequest {
        let row = columns.reader(row)
        let text = try row.text("r.udid")
        guard let udid = try? DeviceIdentifier(text) else { throw SQLRowError(column: "r.udid", problem: .unreadable(text, expected: "a device identifier")) }
        return DeviceRequest(udid: udid, testerID: try row.int("r.tester_id"), testerName: try row.text("tester_name"),
                             family: try row.required("r.family", as: DeviceFamily.self), model: try row.optionalText("r.product"),
                             osBuild: try row.optionalText("r.os_build"), serial: try row.optionalText("r.serial"), imei: try row.optionalText("r.imei"),
                             deviceName: try row.optionalText("r.device_name"), verified: try row.int("r.verified") != 0,
                             requestedAt: try row.date("r.requested_at"))
    }

    /// The open requests of current testers, oldest first. A removed tester's request is not
    /// listed: it cannot be approved, and the device enrolling again from another link replaces it.
    public func open() throws -> [DeviceRequest] {
        try home.store.read { db in
            try db.query(Self.select + " WHERE r.status = 'open' AND t.removed_at IS NULL ORDER BY r.requested_at, r.id")
                .map { row throws(SQLRowError) in try Self.request(from: row) }
        }
    }

    /// Approves the open request for `udid`: registers the device to the tester who asked, taking a
    /// slot under the family limit (throws `RosterError.limitReached`, naming the renewal, when
    /// the family is full; the request then stays open). Returns the registered device.
    public func approve(_ udid: DeviceIdentifier, now: Date) throws -> Roster.DeviceAddition {
        let settings = home.settings
        return try home.store.write { db in
            guard let row = try db.queryOne(Self.select + " WHERE r.status = 'open' AND r.udid = ?", [.text(udid.value)]) else {
                throw DeviceRequestError.notFound(udid)
            }
            let request = try Self.request(from: row)
            let owner: Tester
            do { owner = try Roster.resolveTester(String(request.testerID), db: db) } catch is RosterError {
                throw DeviceRequestError.testerRemoved(udid, testerName: request.testerName)
            }
            let reused = try Self.register(request, owner: owner, settings: settings, now: now, db: db)
            try db.query("UPDATE device_requests SET status = 'approved', decided_at = ? WHERE status = 'open' AND udid = ?",
                         [.text(Timestamp.string(now)), .text(udid.value)])
            guard let deviceRow = try db.queryOne(Roster.deviceSelect + " WHERE d.udid = ?", [.text(udid.value)]) else { throw RosterError.deviceNotFound(udid) }
            let device = try Roster.device(from: deviceRow)
            try WebhookOutbox.device(.deviceApproved, udid: udid.value, name: device.name, family: device.family.rawValue, testerID: owner.id, db: db, now: now)
            try AutoProvisioning.deviceApproved(udid: udid.value, db: db, now: now)
            return Roster.DeviceAddition(device: device, reusedSlot: reused)
        }
    }

    /// Rejects the open request for `udid`. Nothing else changes: the request held no slot.
    public func reject(_ udid: DeviceIdentifier, now: Date) throws -> DeviceRequest {
        try home.store.write { db in
            guard let row = try db.queryOne(Self.select + " WHERE r.status = 'open' AND r.udid = ?", [.text(udid.value)]) else {
                throw DeviceRequestError.notFound(udid)
            }
            let request = try Self.request(from: row)
            try db.query("UPDATE device_requests SET status = 'rejected', decided_at = ? WHERE status = 'open' AND udid = ?",
                         [.text(Timestamp.string(now)), .text(udid.value)])
            return request
        }
    }

    /// The approval rule in force.
    public func rule() throws -> ApprovalRule {
        try home.store.read { db in try Self.rule(db: db) }
    }

    static func rule(db: SQLiteConnection) throws -> ApprovalRule {
        guard let row = try db.queryOne("SELECT mode, group_name FROM device_approval_rule WHERE id = 1") else { return .off }
        switch row.string(0) {
        case "all": return .all
        case "group": return row.string(1).map(ApprovalRule.group) ?? .off
        default: return .off
        }
    }

    /// Sets the approval rule. It applies to replies arriving from now on; open requests stay open.
    public func setRule(_ rule: ApprovalRule, now: Date) throws {
        var group: String?
        if case let .group(name) = rule {
            do { group = try Roster.validate(groups: [name]).first } catch { throw DeviceRequestError.invalidGroup(name) }
        }
        try home.store.write { db in
            switch rule {
            case .off:
                try db.query("DELETE FROM device_approval_rule")
            case .all, .group:
                try db.query("""
                    INSERT INTO device_approval_rule (id, mode, group_name, set_at) VALUES (1, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, group_name = excluded.group_name, set_at = excluded.set_at
                    """, [.text(group == nil ? "all" : "group"), .optional(group), .text(Timestamp.string(now))])
            }
        }
    }

    /// Registers the requested device to `owner` inside the caller's transaction, through the
    /// roster's insert (slot rule included), and records what the device reported. Returns whether
    /// a slot was reused. An active device already the owner's is left as it is.
    static func register(_ request: DeviceRequest, owner: Tester, settings: HomeSettings, now: Date, db: SQLiteConnection) throws -> Bool {
        if let existing = try db.queryOne(Roster.deviceSelect + " WHERE d.udid = ?", [.text(request.udid.value)]).map({ row throws(SQLRowError) in try Roster.device(from: row) }),
           existing.status == .active {
            guard existing.testerID == owner.id else { throw RosterError.deviceAlreadyRegistered(request.udid, testerName: existing.testerName) }
            return true
        }
        let model = request.model.map(DeviceModelName.displayName(forModelCode:)) ?? request.family.displayName
        let reportedName = request.deviceName?.trimmed ?? ""
        let name = reportedName.isEmpty ? "\(owner.name) \(model)" : reportedName
        let reused = try Roster.insertDevice(NewDevice(identifier: request.udid, name: name, family: request.family, model: request.model),
                                             owner: owner, settings: settings, now: now, db: db)
        try db.query("""
            INSERT INTO enrolled_devices (udid, tester_id, product, os_build, serial, imei, device_name, enrolled_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (udid) DO UPDATE SET tester_id = excluded.tester_id, product = excluded.product, os_build = excluded.os_build,
                serial = excluded.serial, imei = excluded.imei, device_name = excluded.device_name, enrolled_at = excluded.enrolled_at
            """, [.text(request.udid.value), .integer(owner.id), .optional(request.model), .optional(request.osBuild),
                  .optional(request.serial), .optional(request.imei), .optional(request.deviceName), .text(Timestamp.string(now))])
        return reused
    }
}
