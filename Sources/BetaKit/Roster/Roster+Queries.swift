#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Roster {
    /// The columns of `SELECT … FROM testers`, shared with `tester(from:groups:)`.
    static let testerColumns = SQLColumns(["id", "name", "email", "token", "created_at", "removed_at"])

    static func tester(from row: SQLiteRow, groups: [String]) throws(SQLRowError) -> Tester {
        let row = testerColumns.reader(row)
        return Tester(id: try row.int("id"), name: try row.text("name"), email: try row.optionalText("email"), groups: groups,
                      token: try row.text("token"), createdAt: try row.date("created_at"), removedAt: try row.optionalDate("removed_at"))
    }

    static func groups(of id: Int64, db: SQLiteConnection) throws -> [String] {
        try db.query("SELECT name FROM tester_groups WHERE tester_id = ? ORDER BY name", [.integer(id)]).compactMap { $0.string(0) }
    }

    /// The columns of `SELECT … FROM tester_groups`.
    static let testerGroupColumns = SQLColumns(["tester_id", "name"])

    static func loadTesters(_ db: SQLiteConnection, includeRemoved: Bool) throws -> [Tester] {
        var groupsByTester: [Int64: [String]] = [:]
        for found in try db.query("SELECT \(testerGroupColumns.list) FROM tester_groups ORDER BY name") {
            let row = testerGroupColumns.reader(found)
            groupsByTester[try row.int("tester_id"), default: []].append(try row.text("name"))
        }
        let filter = includeRemoved ? "" : "WHERE removed_at IS NULL"
        return try db.query("SELECT \(testerColumns.list) FROM testers \(filter) ORDER BY id").map { row throws(SQLRowError) in
            try tester(from: row, groups: groupsByTester[try testerColumns.reader(row).int("id")] ?? [])
        }
    }

    /// Finds a current tester by id, then email, then exact (case-insensitive) name.
    static func resolveTester(_ reference: String, db: SQLiteConnection) throws -> Tester {
        let key = reference.trimmed
        var row: SQLiteRow?
        if let id = Int64(key) {
            row = try db.queryOne("SELECT \(testerColumns.list) FROM testers WHERE id = ? AND removed_at IS NULL", [.integer(id)])
        }
        if row == nil, key.contains("@") {
            row = try db.queryOne("SELECT \(testerColumns.list) FROM testers WHERE email = ? AND removed_at IS NULL", [.text(key)])
        }
        if row == nil {
            let byName = try db.query("SELECT \(testerColumns.list) FROM testers WHERE name = ? COLLATE NOCASE AND removed_at IS NULL ORDER BY id", [.text(key)])
            if byName.count > 1 { throw RosterError.ambiguousTester(key, ids: try byName.map { row throws(SQLRowError) in try testerColumns.reader(row).int("id") }) }
            row = byName.first
        }
        guard let row else { throw RosterError.testerNotFound(reference) }
        return try tester(from: row, groups: try groups(of: try testerColumns.reader(row).int("id"), db: db))
    }

    /// The columns of `deviceSelect`, shared with `device(from:)`.
    static let deviceColumns = SQLColumns(["d.udid", "d.name", "d.family", "d.model", "d.tester_id", "t.name AS tester_name",
                                           "d.added_at", "d.removed_at", pendingColumn + " AS is_pending"])

    static let deviceSelect = "SELECT \(deviceColumns.list) FROM devices d LEFT JOIN testers t ON t.id = d.tester_id"

    static func device(from row: SQLiteRow) throws(SQLRowError) -> Device {
        let row = deviceColumns.reader(row)
        let text = try row.text("d.udid")
        guard let udid = try? DeviceIdentifier(text) else { throw SQLRowError(column: "d.udid", problem: .unreadable(text, expected: "a device identifier")) }
        return Device(identifier: udid, name: try row.text("d.name"), family: try row.required("d.family", as: DeviceFamily.self),
                      model: try row.optionalText("d.model"), testerID: try row.optionalInt("d.tester_id"), testerName: try row.optionalText("tester_name"),
                      addedAt: try row.date("d.added_at"), removedAt: try row.optionalDate("d.removed_at"), isPending: try row.int("is_pending") == 1)
    }

    /// Slots in `family` during the year starting `yearStart`: every device with a registration
    /// period that is still open or closed on or after the start of the year.
    static func slotCount(family: DeviceFamily, yearStart: String, db: SQLiteConnection) throws -> (used: Int, active: Int) {
        let used = try db.queryOne("SELECT COUNT(DISTINCT udid) FROM device_history WHERE family = ? AND (removed_at IS NULL OR removed_at >= ?)",
                                   [.text(family.rawValue), .text(yearStart)])?.int(0) ?? 0
        let active = try db.queryOne("SELECT COUNT(*) FROM devices WHERE family = ? AND removed_at IS NULL", [.text(family.rawValue)])?.int(0) ?? 0
        return (Int(used), Int(active))
    }

    /// Whether the device already holds a slot in `family` this year.
    static func holdsSlot(_ udid: DeviceIdentifier, family: DeviceFamily, yearStart: String, db: SQLiteConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM device_history WHERE udid = ? AND family = ? AND (removed_at IS NULL OR removed_at >= ?) LIMIT 1",
                        [.text(udid.value), .text(family.rawValue), .text(yearStart)]) != nil
    }
}
