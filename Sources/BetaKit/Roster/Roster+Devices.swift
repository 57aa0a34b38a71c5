#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Roster {
    /// The outcome of registering one device.
    public struct DeviceAddition: Sendable, Equatable {
        /// The registered device.
        public var device: Device
        /// True when the device already held a slot this year (a re-add), so none was taken.
        public var reusedSlot: Bool
    }

    /// Registers a device to a tester (by id, email or name), enforcing the per-family limit.
    public func addDevice(_ request: NewDevice, tester reference: String?, now: Date) throws -> DeviceAddition {
        let settings = home.settings
        return try store.write { db in
            let owner = try reference.map { try Self.resolveTester($0, db: db) }
            let reused = try Self.insertDevice(request, owner: owner, settings: settings, now: now, db: db)
            guard let row = try db.queryOne(Self.deviceSelect + " WHERE d.udid = ?", [.text(request.identifier.value)]) else {
                throw RosterError.deviceNotFound(request.identifier)
            }
            let device = try Self.device(from: row)
            return DeviceAddition(device: device, reusedSlot: reused)
        }
    }

    /// Inserts or re-activates a device inside the caller's write transaction; returns whether a slot was reused.
    @discardableResult
    static func insertDevice(_ request: NewDevice, owner: Tester?, settings: HomeSettings, now: Date, db: SQLiteConnection) throws -> Bool {
        let udid = request.identifier
        try RosterError.checkNoNUL(request.name, device: true)
        let existing = try db.queryOne(deviceSelect + " WHERE d.udid = ?", [.text(udid.value)]).map { row throws(SQLRowError) in try device(from: row) }
        if let existing, existing.status == .active {
            throw RosterError.deviceAlreadyRegistered(udid, testerName: existing.testerName)
        }
        let year = settings.membershipYear(at: now)
        let yearStart = Timestamp.string(startOf: year.start)
        let reused = try holdsSlot(udid, family: request.family, yearStart: yearStart, db: db)
        if !reused {
            let (used, active) = try slotCount(family: request.family, yearStart: yearStart, db: db)
            if used >= limitPerFamily {
                throw RosterError.limitReached(udid, family: request.family, used: used, limit: limitPerFamily,
                                               removedStillCounting: used - active, renews: year.renews)
            }
        }
        let stamp = Timestamp.string(now)
        var name = request.name.trimmed
        if name.isEmpty { name = existing?.name ?? "" }
        if name.isEmpty { name = owner.map(\.name).map { "\($0)'s \(request.family.displayName)" } ?? request.family.displayName }
        try db.query("""
            INSERT INTO devices (udid, tester_id, name, family, model, added_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (udid) DO UPDATE SET tester_id = excluded.tester_id, name = excluded.name, family = excluded.family,
                model = excluded.model, added_at = excluded.added_at, removed_at = NULL
            """, [.text(udid.value), .optional(owner?.id), .text(name), .text(request.family.rawValue),
                  .optional(request.model ?? existing?.model), .text(stamp)])
        try db.query("INSERT INTO device_history (udid, family, added_at) VALUES (?, ?, ?)",
                     [.text(udid.value), .text(request.family.rawValue), .text(stamp)])
        return reused
    }

    /// Removes a device. Its slot stays taken until the membership year renews.
    public func removeDevice(_ udid: DeviceIdentifier, now: Date) throws -> Device {
        let stamp = Timestamp.string(now)
        return try store.write { db in
            guard let row = try db.queryOne(Self.deviceSelect + " WHERE d.udid = ?", [.text(udid.value)]) else { throw RosterError.deviceNotFound(udid) }
            var device = try Self.device(from: row)
            if let removed = device.removedAt { throw RosterError.deviceAlreadyRemoved(udid, on: CalendarDate(removed)) }
            try db.query("UPDATE devices SET removed_at = ? WHERE udid = ?", [.text(stamp), .text(udid.value)])
            try db.query("UPDATE device_history SET removed_at = ? WHERE udid = ? AND removed_at IS NULL", [.text(stamp), .text(udid.value)])
            device.removedAt = Timestamp.date(stamp)
            return device
        }
    }

    /// Every device ever registered (active first, then removed), each group ordered by tester and name.
    public func devices(includeRemoved: Bool = true) throws -> [Device] {
        try store.read { db in
            let filter = includeRemoved ? "" : " WHERE d.removed_at IS NULL"
            return try db.query(Self.deviceSelect + filter + " ORDER BY d.removed_at IS NOT NULL, t.name COLLATE NOCASE, d.name COLLATE NOCASE, d.udid")
                .map { row throws(SQLRowError) in try Self.device(from: row) }
        }
    }

    /// Slot usage per family in the membership year containing `now`.
    public func usage(now: Date) throws -> DeviceUsage {
        let year = home.settings.membershipYear(at: now)
        let yearStart = Timestamp.string(startOf: year.start)
        return try store.read { db in
            let families = try DeviceFamily.allCases.map { family in
                let (used, active) = try Self.slotCount(family: family, yearStart: yearStart, db: db)
                return FamilyUsage(family: family, used: used, limit: Self.limitPerFamily, removed: used - active, renews: year.renews)
            }
            return DeviceUsage(year: year, families: families)
        }
    }
}
