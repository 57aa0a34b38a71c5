#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Roster {
    static let testerColumns = "id, name, email, token, created_at, removed_at"

    static func tester(from row: SQLiteRow, groups: [String]) -> Tester {
        Tester(id: row.int(0) ?? 0, name: row.string(1) ?? "", email: row.string(2), groups: groups,
               token: row.string(3) ?? "", createdAt: row.string(4).flatMap(Timestamp.date) ?? Date(timeIntervalSince1970: 0),
               removedAt: row.string(5).flatMap(Timestamp.date))
    }

    static func groups(of id: Int64, db: SQLiteConnection) throws -> [String] {
        try db.query("SELECT name FROM tester_groups WHERE tester_id = ? ORDER BY name", [.integer(id)]).compactMap { $0.string(0) }
    }

    static func loadTesters(_ db: SQLiteConnection, includeRemoved: Bool) throws -> [Tester] {
        var groupsByTester: [Int64: [String]] = [:]
        for row in try db.query("SELECT tester_id, name FROM tester_groups ORDER BY name") {
            if let id = row.int(0), let name = row.string(1) { groupsByTester[id, default: []].append(name) }
        }
        let filter = includeRemoved ? "" : "WHERE removed_at IS NULL"
        return try db.query("SELECT \(testerColumns) FROM testers \(filter) ORDER BY id").map {
            tester(from: $0, groups: groupsByTester[$0.int(0) ?? 0] ?? [])
        }
    }

    /// Finds a current tester by id, then email, then exact (case-insensitive) name.
    static func resolveTester(_ reference: String, db: SQLiteConnection) throws -> Tester {
        let key = reference.trimmed
        var row: SQLiteRow?
        if let id = Int64(key) {
            row = try db.queryOne("SELECT \(testerColumns) FROM testers WHERE id = ? AND removed_at IS NULL", [.integer(id)])
        }
        if row == nil, key.contains("@") {
            row = try db.queryOne("SELECT \(testerColumns) FROM testers WHERE email = ? AND removed_at IS NULL", [.text(key)])
        }
        if row == nil {
            let byName = try db.query("SELECT \(testerColumns) FROM testers WHERE name = ? COLLATE NOCASE AND removed_at IS NULL ORDER BY id", [.text(key)])
            if byName.count > 1 { throw RosterError.ambiguousTester(key, ids: byName.compactMap { $0.int(0) }) }
            row = byName.first
        }
        guard let row, let id = row.int(0) else { throw RosterError.testerNotFound(reference) }
        return tester(from: row, groups: try groups(of: id, db: db))
    }

    static let deviceSelect = """
        SELECT d.udid, d.name, d.family, d.model, d.tester_id, t.name, d.added_at, d.removed_at, \(pendingColumn)
        FROM devices d LEFT JOIN testers t ON t.id = d.tester_id
        """

    static func device(from row: SQLiteRow) -> Device? {
        guard let udid = row.string(0).flatMap({ try? DeviceIdentifier($0) }),
              let family = row.string(2).flatMap(DeviceFamily.init(rawValue:)) else { return nil }
        return Device(identifier: udid, name: row.string(1) ?? "", family: family, model: row.string(3),
                      testerID: row.int(4), testerName: row.string(5),
                      addedAt: row.string(6).flatMap(Timestamp.date) ?? Date(timeIntervalSince1970: 0),
                      removedAt: row.string(7).flatMap(Timestamp.date), isPending: row.int(8) == 1)
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
