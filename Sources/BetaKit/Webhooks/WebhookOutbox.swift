#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The outbox: events are written here inside the transaction of the change that caused them,
/// so a change that rolls back sends nothing and a committed one is never lost. The delivery
/// worker (`WebhookDeliverer`) sends them later, never on a request path.
public enum WebhookOutbox {
    /// The columns of an endpoint `enqueue` may record an event for.
    static let subscriberColumns = SQLColumns(["id", "events"])

    /// Records `event` for every enabled endpoint subscribed to it (or only `webhookID`), inside
    /// the caller's transaction. `fields` become the payload's `data` with `summary` and `url`
    /// (the absolute dashboard link made from `path`) added; with no subscriber nothing is written.
    static func enqueue(_ event: WebhookEvent, _ fields: [(String, WebhookData)], summary: String, path: String?,
                        db: SQLiteConnection, now: Date, only webhookID: Int64? = nil) throws {
        let subscribers = try db.query("SELECT \(subscriberColumns.list) FROM webhooks WHERE disabled_at IS NULL").compactMap { found throws(SQLRowError) -> Int64? in
            let row = subscriberColumns.reader(found)
            let id = try row.int("id")
            guard webhookID == nil || webhookID == id else { return nil }
            let events = Webhooks.events(from: try row.text("events"))
            return event == .webhookTest || events.isEmpty || events.contains(event) ? id : nil
        }
        guard !subscribers.isEmpty else { return }
        let base = try publicURL(db)
        let link = path.map { base + $0 }
        var members = fields
        members.append(("summary", .string(summary)))
        members.append(("url", .optional(link)))
        let stamp = Timestamp.string(now)
        try db.query("INSERT INTO webhook_events (type, payload, summary, link, created_at) VALUES (?, ?, ?, ?, ?)",
                     [.text(event.rawValue), .text(WebhookData.object(members).json), .text(summary), .optional(link), .text(stamp)])
        let eventID = db.lastInsertRowID
        let due = milliseconds(now)
        for id in subscribers {
            try db.query("""
                INSERT INTO webhook_deliveries (webhook_id, event_id, message_id, state, next_attempt_ms, created_at)
                VALUES (?, ?, ?, 'pending', ?, ?)
                """, [.integer(id), .integer(eventID), .text(newMessageID()), .integer(due), .text(stamp)])
        }
    }

    /// The home's public URL, read in the same transaction.
    static func publicURL(_ db: SQLiteConnection) throws -> String {
        try db.queryOne("SELECT value FROM settings WHERE key = 'public_url'")?.string(0) ?? HomeSettings.defaultPublicURL
    }

    /// `msg_` and 24 random hex digits: the `webhook-id` of every attempt of one delivery.
    static func newMessageID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "msg_" + (0 ..< 12).map { _ in
            let byte = UInt8.random(in: 0 ... 255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970 * 1000
        return value.isFinite ? Int64(max(0, min(value, 9e15))) : 0
    }
}
