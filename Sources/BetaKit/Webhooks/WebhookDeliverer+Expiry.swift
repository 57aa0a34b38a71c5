#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WebhookDeliverer {
    /// The days ahead of a profile's expiry that `profile.expiring` is sent, once each.
    public static let expiryNotices = [30, 7]

    /// Queues `profile.expiring` for profiles expiring within 30 or 7 days that have not had that
    /// notice; a profile already inside 7 days gets only the 7-day one. Returns how many were queued.
    @discardableResult
    public func queueExpiryNotices() throws -> Int {
        let moment = now()
        return try home.store.write { db in
            var queued = 0
            let horizon = Timestamp.string(moment.addingTimeInterval(Double(Self.expiryNotices.max() ?? 30) * 86_400))
            let rows = try db.query("SELECT uuid, expires_at FROM profiles WHERE expires_at > ? AND expires_at <= ?",
                                    [.text(Timestamp.string(moment)), .text(horizon)])
            for row in rows {
                guard let uuid = row.string(0), let expires = row.string(1).flatMap(Timestamp.date) else { continue }
                let daysLeft = Int(expires.timeIntervalSince(moment) / 86_400)
                let due = Self.expiryNotices.filter { expires.timeIntervalSince(moment) <= Double($0) * 86_400 }
                guard let threshold = due.min() else { continue }
                var sentAny = false
                for days in due {
                    try db.query("INSERT OR IGNORE INTO webhook_profile_notices (profile_uuid, days, sent_at) VALUES (?, ?, ?)",
                                 [.text(uuid), .integer(Int64(days)), .text(Timestamp.string(moment))])
                    if db.changes > 0 && days == threshold { sentAny = true }
                }
                if sentAny {
                    try WebhookOutbox.profile(.profileExpiring, uuid: uuid, db: db, now: moment,
                                              extra: [("days_left", .int(Int64(daysLeft))), ("notice_days", .int(Int64(threshold)))])
                    queued += 1
                }
            }
            return queued
        }
    }
}
