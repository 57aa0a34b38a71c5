#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension AppleAccount {
    /// The key, the team, the last sync and the counts, from what is stored (no call to Apple).
    public func status(now: Date) throws -> AppleStatus {
        let connection = try connection()
        let ledger = try self.ledger(now: now)
        return try store.read { db in
            let counts = try db.queryOne("""
                SELECT COUNT(*), COALESCE(SUM(status = 'DISABLED'), 0) FROM apple_devices
                """)
            let roster = try db.queryOne("""
                SELECT COALESCE(SUM(a.status = 'ENABLED'), 0), COALESCE(SUM(a.status = 'DISABLED'), 0), COALESCE(SUM(a.status IS NULL), 0)
                FROM devices d LEFT JOIN apple_devices a ON a.udid = d.udid COLLATE NOCASE WHERE d.removed_at IS NULL
                """)
            return AppleStatus(keyID: connection?.key.keyID, issuerID: connection?.key.issuerID, baseURL: connection?.baseURL,
                               connectedAt: connection?.connectedAt, teamID: try Self.state("team_id", db: db),
                               lastSync: try Self.state("last_sync", db: db).flatMap(Timestamp.date),
                               rateLimit: try Self.state("rate_limit", db: db),
                               appleDevices: Int(counts?.int(0) ?? 0), appleDisabled: Int(counts?.int(1) ?? 0),
                               registered: Int(roster?.int(0) ?? 0), disabled: Int(roster?.int(1) ?? 0), pending: Int(roster?.int(2) ?? 0),
                               ledger: ledger)
        }
    }

    /// Each roster device's state at Apple, keyed by its UDID (as the roster writes it).
    public func deviceStates() throws -> [String: AppleDeviceState] {
        try store.read { db in
            var states: [String: AppleDeviceState] = [:]
            for row in try db.query("""
                SELECT d.udid, a.status FROM devices d LEFT JOIN apple_devices a ON a.udid = d.udid COLLATE NOCASE
                """) {
                guard let udid = row.string(0) else { continue }
                switch row.string(1) {
                case "ENABLED": states[udid] = .registered
                case "DISABLED": states[udid] = .disabled
                default: states[udid] = states[udid] ?? .notRegistered
                }
            }
            return states
        }
    }

    /// Whether Apple's device list was ever read.
    public func hasSynced() throws -> Bool {
        try store.read { db in try Self.state("last_sync", db: db) != nil }
    }

    /// Apple's slot count per family beside the roster's, for families either side has devices in;
    /// empty before the first sync.
    public func ledger(now: Date) throws -> [AppleLedgerEntry] {
        let usage = try Roster(home: home).usage(now: now)
        let yearStart = Timestamp.string(startOf: usage.year.start)
        return try store.read { db in
            guard try Self.state("last_sync", db: db) != nil else { return [] }
            return try usage.families.compactMap { family -> AppleLedgerEntry? in
                let apple = try Self.appleSlots(family: family.family, yearStart: yearStart, db: db)
                let onlyAtApple = try db.queryOne("""
                    SELECT COUNT(*) FROM apple_devices a WHERE a.device_class = ? AND (a.status = 'ENABLED' OR a.added_at >= ?)
                      AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.udid = a.udid COLLATE NOCASE AND d.removed_at IS NULL)
                    """, [.text(AppleDeviceClass.deviceClass(family.family)), .text(yearStart)])?.int(0) ?? 0
                let onlyInRoster = try db.queryOne("""
                    SELECT COUNT(*) FROM devices d WHERE d.family = ? AND d.removed_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM apple_devices a WHERE a.udid = d.udid COLLATE NOCASE)
                    """, [.text(family.family.rawValue)])?.int(0) ?? 0
                guard apple > 0 || family.used > 0 else { return nil }
                return AppleLedgerEntry(family: family.family, apple: apple, roster: family.used,
                                        onlyAtApple: Int(onlyAtApple), onlyInRoster: Int(onlyInRoster))
            }
        }
    }

    /// Slots Apple counts in `family` this membership year.
    static func appleSlots(family: DeviceFamily, yearStart: String, db: SQLiteConnection) throws -> Int {
        Int(try db.queryOne("""
            SELECT COUNT(*) FROM apple_devices WHERE device_class = ? AND (status = 'ENABLED' OR added_at >= ?)
            """, [.text(AppleDeviceClass.deviceClass(family)), .text(yearStart)])?.int(0) ?? 0)
    }
}
