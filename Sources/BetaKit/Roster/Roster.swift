#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Testers and their devices, with Apple's per-family device limit enforced.
///
/// Every change runs in one write transaction that re-reads what it checks, so
/// two processes adding devices at once cannot both take the last slot.
public struct Roster: Sendable {
    /// Apple's limit of devices per family per membership year.
    public static let limitPerFamily = 100

    let home: Home
    var store: Store { home.store }

    /// A roster over `home`'s database.
    public init(home: Home) { self.home = home }

    /// Adds a tester and, in the same transaction, their devices.
    public func addTester(_ request: NewTester, now: Date) throws -> Tester {
        let name = request.name.trimmed
        guard !name.isEmpty else { throw RosterError.emptyName }
        try RosterError.checkNoNUL(name, device: false)
        let email = try request.email.map { email throws(RosterError) in try Self.validate(email: email) }
        let groups = try Self.validate(groups: request.groups)
        let token = InviteToken.make()
        let stamp = Timestamp.string(now)
        let settings = home.settings
        return try store.write { db in
            if let email, let clash = try db.queryOne("SELECT id, name FROM testers WHERE email = ? AND removed_at IS NULL", [.text(email)]) {
                throw RosterError.duplicateEmail(email, testerID: clash.int(0) ?? 0, testerName: clash.string(1) ?? "")
            }
            try db.query("INSERT INTO testers (name, email, token, token_digest, created_at) VALUES (?, ?, ?, ?, ?)",
                         [.text(name), .optional(email), .text(token), .text(InviteToken.digest(token)), .text(stamp)])
            let id = db.lastInsertRowID
            for group in groups {
                try db.query("INSERT INTO tester_groups (tester_id, name) VALUES (?, ?)", [.integer(id), .text(group)])
            }
            let tester = Tester(id: id, name: name, email: email, groups: groups, token: token, createdAt: Timestamp.date(stamp) ?? now, removedAt: nil)
            for device in request.devices {
                try Self.insertDevice(device, owner: tester, settings: settings, now: now, db: db)
            }
            try WebhookOutbox.testerAdded(id: id, db: db, now: now)
            return tester
        }
    }

    /// Current testers (and removed ones when asked), ordered by id.
    public func testers(includeRemoved: Bool = false) throws -> [Tester] {
        try store.read { db in try Self.loadTesters(db, includeRemoved: includeRemoved) }
    }

    /// The current tester with this id, email or exact name.
    public func tester(matching reference: String) throws -> Tester {
        try store.read { db in try Self.resolveTester(reference, db: db) }
    }

    /// Removes a tester and their devices; the devices keep their slots until renewal.
    public func removeTester(_ reference: String, now: Date) throws -> (tester: Tester, removedDevices: [DeviceIdentifier]) {
        let stamp = Timestamp.string(now)
        return try store.write { db in
            var tester = try Self.resolveTester(reference, db: db)
            let udids = try db.query("SELECT udid FROM devices WHERE tester_id = ? AND removed_at IS NULL ORDER BY udid", [.integer(tester.id)])
                .compactMap { $0.string(0) }
            try db.query("UPDATE device_history SET removed_at = ? WHERE removed_at IS NULL AND udid IN (SELECT udid FROM devices WHERE tester_id = ? AND removed_at IS NULL)",
                         [.text(stamp), .integer(tester.id)])
            try db.query("UPDATE devices SET removed_at = ? WHERE tester_id = ? AND removed_at IS NULL", [.text(stamp), .integer(tester.id)])
            try db.query("UPDATE testers SET removed_at = ? WHERE id = ?", [.text(stamp), .integer(tester.id)])
            tester.removedAt = Timestamp.date(stamp)
            return (tester, udids.compactMap { try? DeviceIdentifier($0) })
        }
    }

    static func validate(email raw: String) throws(RosterError) -> String {
        let email = raw.trimmed
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, email.utf8.count <= 254,
              parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains(".."),
              email.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 && !$0.properties.isWhitespace && !"<>()[],;:\\\"".unicodeScalars.contains($0) })
        else { throw RosterError.invalidEmail(raw) }
        return email
    }

    static func validate(groups: [String]) throws(RosterError) -> [String] {
        var result: [String] = []
        for raw in groups {
            let group = raw.trimmed
            guard (1 ... 64).contains(group.count),
                  group.allSatisfy({ $0.isLetter || $0.isNumber || " .-_".contains($0) }) else { throw RosterError.invalidGroup(raw) }
            if !result.contains(group) { result.append(group) }
        }
        return result.sorted()
    }
}
