#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension DeviceEnrollment {
    /// Takes in the reply whose challenge checked out: a request, or the device registered at once
    /// when the approval rule covers the tester; fills in `result`.
    static func admit(_ reply: DeviceEnrollmentReply, family: DeviceFamily, verified: Bool, testerID: Int64, settings: HomeSettings,
                      openRequestLimit: Int, now: Date, into result: inout EnrollmentResult, db: SQLiteConnection) throws {
        let owner: Tester
        do { owner = try Roster.resolveTester(String(testerID), db: db) } catch is RosterError {
            // The tester was removed since the profile was served: their link no longer counts.
            result.outcome = .expired
            return
        }
        let model = reply.product.map(DeviceModelName.displayName(forModelCode:)) ?? family.displayName
        let reportedName = reply.deviceName?.trimmed ?? ""
        let name = reportedName.isEmpty ? "\(owner.name) \(model)" : reportedName
        result.deviceName = name
        if let existing = try db.queryOne(Roster.deviceSelect + " WHERE d.udid = ?", [.text(reply.udid.value)]).map({ row throws(SQLRowError) in try Roster.device(from: row) }),
           existing.status == .active {
            result.deviceName = existing.name
            if existing.testerID == owner.id {
                result.outcome = .alreadyRegistered
            } else if existing.testerID == nil {
                // In the roster without a tester (imported from Apple's list): the device is the tester's.
                try db.query("UPDATE devices SET tester_id = ?, model = COALESCE(model, ?) WHERE udid = ?",
                             [.integer(owner.id), .optional(reply.product), .text(reply.udid.value)])
                result.outcome = .alreadyRegistered
            } else {
                result.outcome = .registeredToSomeoneElse
            }
            return
        }
        let request = DeviceRequest(udid: reply.udid, testerID: owner.id, testerName: owner.name, family: family, model: reply.product,
                                    osBuild: reply.version, serial: reply.serial, imei: reply.imei, deviceName: reply.deviceName,
                                    verified: verified, requestedAt: now)
        var openRow = try db.queryOne("""
            SELECT r.tester_id, t.removed_at FROM device_requests r JOIN testers t ON t.id = r.tester_id
            WHERE r.status = 'open' AND r.udid = ?
            """, [.text(reply.udid.value)])
        if let row = openRow, row.int(0) != owner.id {
            guard row.string(1) != nil else {
                result.outcome = .requestedBySomeoneElse
                return
            }
            // The tester who asked was removed since: their request lapses and this one takes its place.
            try db.query("UPDATE device_requests SET status = 'rejected', decided_at = ? WHERE status = 'open' AND udid = ?",
                         [.text(Timestamp.string(now)), .text(reply.udid.value)])
            openRow = nil
        }
        let approved = try DeviceRequests.rule(db: db).approves(owner)
        if openRow == nil, !approved {
            let open = try db.queryOne("SELECT count(*) FROM device_requests WHERE status = 'open' AND tester_id = ?", [.integer(owner.id)])?
                .int(0) ?? 0
            if open >= Int64(openRequestLimit) {
                result.outcome = .tooManyRequests
                result.slots = (Int(open), openRequestLimit)
                return
            }
        }
        do {
            if approved {
                result.reusedSlot = try DeviceRequests.register(request, owner: owner, settings: settings, now: now, db: db)
                result.outcome = .registered
            } else {
                // A request takes no slot, but one for a family that is already full could never be approved this year.
                try Roster.checkRoom(for: reply.udid, family: family, settings: settings, now: now, db: db)
                result.outcome = .requested
            }
        } catch let RosterError.limitReached(_, _, used, limit, _, renews) {
            result.outcome = .familyFull
            result.slots = (used, limit)
            result.renews = renews
            return
        }
        let stamp = Timestamp.string(now)
        try db.query("""
            INSERT INTO device_requests (udid, tester_id, family, product, os_build, serial, imei, device_name, verified, requested_at, status,
                decided_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (udid) WHERE status = 'open' DO UPDATE SET family = excluded.family, product = excluded.product,
                os_build = excluded.os_build, serial = excluded.serial, imei = excluded.imei, device_name = excluded.device_name,
                verified = excluded.verified, requested_at = excluded.requested_at, status = excluded.status, decided_at = excluded.decided_at
            """, [.text(reply.udid.value), .integer(owner.id), .text(family.rawValue), .optional(reply.product), .optional(reply.version),
                  .optional(reply.serial), .optional(reply.imei), .optional(reply.deviceName), .integer(verified ? 1 : 0), .text(stamp),
                  .text(approved ? "approved" : "open"), approved ? .text(stamp) : .null])
        try WebhookOutbox.device(.deviceEnrolled, udid: reply.udid.value, name: name, family: family.rawValue, testerID: owner.id, db: db, now: now,
                                 extra: [("request", .object([("status", .string(approved ? "approved" : "open")), ("verified", .bool(verified))]))])
        if approved {
            try WebhookOutbox.device(.deviceApproved, udid: reply.udid.value, name: name, family: family.rawValue, testerID: owner.id, db: db, now: now)
            try AutoProvisioning.deviceApproved(udid: reply.udid.value, db: db, now: now)
        }
    }
}
