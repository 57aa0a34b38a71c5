#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The home's webhook endpoints: adding, listing, removing, testing, and their deliveries.
public struct Webhooks: Sendable {
    /// The home.
    public let home: Home

    /// The webhooks of `home`.
    public init(home: Home) {
        self.home = home
    }

    /// Deliveries kept per endpoint; older finished ones are deleted.
    public static let keptDeliveries = 100

    /// Parses `--event` names; throws naming an unknown one.
    public static func parseEvents(_ names: [String]) throws(WebhookError) -> [WebhookEvent] {
        var events: [WebhookEvent] = []
        for name in names.flatMap({ $0.split(separator: ",") }).map({ $0.trimmed }) where !name.isEmpty {
            guard let event = WebhookEvent(rawValue: name), event != .webhookTest else { throw WebhookError.unknownEvent(name) }
            if !events.contains(event) { events.append(event) }
        }
        return events
    }

    static func events(from stored: String) -> [WebhookEvent] {
        stored.split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) }
    }

    /// Adds an endpoint after checking where its URL leads; returns it with its secret (shown once).
    public func add(url: String, events: [WebhookEvent], format: Webhook.Format, allowPrivate: Bool, now: Date) throws -> NewWebhook {
        let destination = try WebhookDestination.check(url, allowPrivate: allowPrivate)
        let key = WebhookSignature.newKey()
        let id: Int64 = try home.store.write { db in
            try db.query("INSERT INTO webhooks (url, events, format, secret, allow_private, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                         [.text(destination.url), .text(events.map(\.rawValue).joined(separator: ",")), .text(format.rawValue),
                          .text(HashDigest(bytes: key).hex), .integer(allowPrivate ? 1 : 0), .text(Timestamp.string(now))])
            return db.lastInsertRowID
        }
        return NewWebhook(webhook: try webhook(id: id), secret: WebhookSignature.secret(key: key))
    }

    /// Every endpoint, oldest first.
    public func list() throws -> [Webhook] {
        try home.store.read { db in try db.query("SELECT \(Self.columns.list) FROM webhooks ORDER BY id").map { row throws(SQLRowError) in try Self.webhook(from: row) } }
    }

    /// One endpoint.
    public func webhook(id: Int64) throws -> Webhook {
        let found = try home.store.read { db in
            try db.queryOne("SELECT \(Self.columns.list) FROM webhooks WHERE id = ?", [.integer(id)]).map { row throws(SQLRowError) in try Self.webhook(from: row) }
        }
        guard let found else { throw WebhookError.unknownWebhook(String(id)) }
        return found
    }

    /// Removes an endpoint and its deliveries.
    @discardableResult
    public func remove(id: Int64) throws -> Webhook {
        let existing = try webhook(id: id)
        try home.store.write { db in
            try db.query("DELETE FROM webhooks WHERE id = ?", [.integer(id)])
            try db.query("DELETE FROM webhook_events WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)")
        }
        return existing
    }

    /// Queues a `webhook.test` event for endpoint `id` (re-enabling it if it was disabled) and
    /// returns the delivery's id.
    public func queueTest(id: Int64, now: Date) throws -> Int64 {
        let hook = try webhook(id: id)
        return try home.store.write { db in
            try db.query("UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = ?", [.integer(id)])
            try WebhookOutbox.enqueue(.webhookTest, [("webhook", .object([("id", .int(id)), ("url", .string(hook.url))]))],
                                      summary: "A test from betactl", path: "/admin/webhooks", db: db, now: now, only: id)
            return db.lastInsertRowID
        }
    }

    /// Deliveries, newest first: of endpoint `id`, or of every endpoint.
    public func deliveries(webhookID id: Int64? = nil, limit: Int = 100) throws -> [WebhookDelivery] {
        if let id { _ = try webhook(id: id) }
        return try home.store.read { db in
            let filter = id == nil ? "" : "WHERE d.webhook_id = ?"
            return try db.query("SELECT \(Self.deliveryColumns.list) FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id \(filter) ORDER BY d.id DESC LIMIT ?",
                                (id.map { [SQLiteValue.integer($0)] } ?? []) + [.integer(Int64(max(1, limit)))]).map { row throws(SQLRowError) in
                let row = Self.deliveryColumns.reader(row)
                let state = try row.text("d.state")
                return WebhookDelivery(id: try row.int("d.id"), webhookID: try row.int("d.webhook_id"), event: try row.text("e.type"),
                                       messageID: try row.text("d.message_id"), state: state, attempts: Int(try row.int("d.attempts")),
                                       lastStatus: try row.optionalInt("d.last_status").map(Int.init), lastError: try row.optionalText("d.last_error"),
                                       createdAt: try row.date("d.created_at"), lastAttemptAt: try row.optionalDate("d.last_attempt_at"),
                                       nextAttemptAt: state == "pending" ? try row.optionalInt("d.next_attempt_ms").map { Date(timeIntervalSince1970: Double($0) / 1000) } : nil)
            }
        }
    }

    /// The columns `deliveries` reads, shared with its decoder.
    static let deliveryColumns = SQLColumns(["d.id", "d.webhook_id", "e.type", "d.message_id", "d.state", "d.attempts", "d.last_status", "d.last_error",
                                             "d.created_at", "d.last_attempt_at", "d.next_attempt_ms"])

    /// The columns of `SELECT … FROM webhooks`, shared with `webhook(from:)`.
    static let columns = SQLColumns(["id", "url", "events", "format", "allow_private", "created_at", "failing_since", "disabled_at", "disabled_reason"])

    static func webhook(from row: SQLiteRow) throws(SQLRowError) -> Webhook {
        let row = columns.reader(row)
        return Webhook(id: try row.int("id"), url: try row.text("url"), events: events(from: try row.text("events")),
                       format: try row.required("format", as: Webhook.Format.self), allowsPrivate: try row.int("allow_private") != 0,
                       createdAt: try row.date("created_at"), failingSince: try row.optionalDate("failing_since"),
                       disabledAt: try row.optionalDate("disabled_at"), disabledReason: try row.optionalText("disabled_reason"))
    }
}
