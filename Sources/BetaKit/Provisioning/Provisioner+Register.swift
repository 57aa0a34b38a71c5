#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Provisioner {
    /// `register-device`: finds the device at Apple (one call that changes nothing) or registers
    /// it, then joins the open batch, or opens one due when the batching window closes.
    func register(_ job: Job) throws {
        let payload = try ProvisioningPayload.decode(ProvisioningPayload.Register.self, job.payload, job: job.id)
        guard let udid = try? DeviceIdentifier(payload.udid) else {
            throw ProvisioningFailure.permanent("job \(job.id) names \"\(payload.udid)\", which is not a UDID; cancel it")
        }
        guard let device = try Roster(home: home).devices(includeRemoved: false).first(where: { $0.identifier == udid }) else {
            throw ProvisioningFailure.permanent("\(udid) is no longer an active roster device, so it is not registered; approve its request again")
        }
        let account = AppleAccount(home: home)
        if try !account.isKnown(udid) {
            let client = try client()
            // Ask first: a run killed after Apple registered the device finds it here instead of registering it twice.
            if try !account.lookUp(udid, family: device.family, client: client, now: clock()) {
                let result = try account.register([udid], client: client, now: clock())
                if let refused = result.outcomes.first(where: { $0.kind == .refused }) {
                    throw ProvisioningFailure.permanent(refused.reason ?? "Apple did not register \(udid)")
                }
            }
        }
        let now = clock()
        try home.store.write { db in
            guard try JobQueue.isStillMine(job.id, db: db) else { throw JobCancelled() }
            try Self.joinBatch(udid.value, db: db, now: now)
            try JobQueue.succeed(job.id, step: "registered", payload: job.payload, db: db, now: now)
        }
    }

    /// Adds `udid` to the batch still gathering devices, or opens one that closes after the window.
    static func joinBatch(_ udid: String, db: SQLiteConnection, now: Date) throws {
        if let row = try db.queryOne("""
            SELECT id, payload FROM jobs WHERE kind = ? AND state IN ('queued', 'waiting') AND step = 'batching' ORDER BY id LIMIT 1
            """, [.text(JobKind.refreshApps.rawValue)]), let id = row.int(0),
            var batch = try? JSONDecoder().decode(ProvisioningPayload.Batch.self, from: Data((row.string(1) ?? "").utf8)) {
            if !batch.udids.contains(where: { $0.uppercased() == udid.uppercased() }) { batch.udids.append(udid) }
            try db.query("UPDATE jobs SET payload = ?, subject = ?, updated_at = ? WHERE id = ?",
                         [.text(batch.json), .text(batch.udids.joined(separator: ", ")), .text(Timestamp.string(now)), .integer(id)])
            return
        }
        let window = try AutoProvisioning.window(db: db)
        try JobQueue.enqueue(.refreshApps, subject: udid, payload: ProvisioningPayload.Batch(udids: [udid]).json, step: "batching",
                             state: .waiting, due: now.addingTimeInterval(TimeInterval(window)), db: db, now: now)
    }
}
