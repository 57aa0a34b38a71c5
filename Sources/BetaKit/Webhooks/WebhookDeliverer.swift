#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import HTTPClient
import PosixIO

/// Sends the outbox's due deliveries. Blocking: the server runs it on its blocking pool, the CLI
/// on its own thread.
///
/// Each attempt is recorded (with this process's id and a lease) before it is sent, so a process
/// killed mid-attempt leaves a record that a later run retries under the same `webhook-id`, and
/// two processes never send the same attempt at once. Receivers deduplicate by `webhook-id`.
public struct WebhookDeliverer: Sendable {
    /// The home.
    public let home: Home
    /// Retry and disabling times.
    public var schedule: WebhookSchedule
    /// The clock.
    public var now: @Sendable () -> Date

    /// A response body is read up to this many bytes, and never logged.
    public static let responseLimit = 64 << 10

    /// A deliverer.
    public init(home: Home, schedule: WebhookSchedule = .standard, now: @escaping @Sendable () -> Date = { Date() }) {
        self.home = home
        self.schedule = schedule
        self.now = now
    }

    /// One attempt, recorded and leased to this process, ready to be sent.
    public struct Claim: Sendable {
        var attemptID: Int64
        var deliveryID: Int64
        var webhookID: Int64
        var messageID: String
        var attempt: Int
        var url: String
        var format: Webhook.Format
        var key: [UInt8]
        var allowPrivate: Bool
        var event: WebhookBody.Event
    }

    /// Sends up to `limit` due deliveries (or only `deliveryID`, due or not) and returns how many
    /// were attempted.
    @discardableResult
    public func deliverDue(limit: Int = 16, only deliveryID: Int64? = nil) throws -> Int {
        let claims = try claim(limit: limit, only: deliveryID)
        for claim in claims { try deliver(claim) }
        return claims.count
    }

    /// Records attempts for up to `limit` due deliveries (leased to this process) and returns
    /// them; `deliver` sends each, and they may be sent at the same time.
    public func claimDue(limit: Int) throws -> [Claim] {
        try claim(limit: limit, only: nil)
    }

    /// Sends one claimed attempt and records what it got.
    public func deliver(_ claim: Claim) throws {
        try record(claim, outcome: send(claim))
    }

    /// When the next pending delivery is due, if one is.
    public func nextDue() throws -> Date? {
        try home.store.read { db in
            try db.queryOne("""
                SELECT min(d.next_attempt_ms) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                WHERE d.state = 'pending' AND w.disabled_at IS NULL
                """)?.int(0).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
    }

    func claim(limit: Int, only deliveryID: Int64?) throws -> [Claim] {
        let moment = now()
        let nowMS = WebhookOutbox.milliseconds(moment)
        let lease = nowMS + Int64((schedule.timeout + 30) * 1000)
        let pid = Int64(CurrentProcess.id)
        return try home.store.write { db in
            // Attempts left unfinished by a process that is gone, or past their lease, are over:
            // their deliveries are due now.
            for found in try db.query("SELECT \(Self.openAttemptColumns.list) FROM webhook_attempts WHERE finished_at IS NULL") {
                let row = Self.openAttemptColumns.reader(found)
                let id = try row.int("id"), delivery = try row.int("delivery_id"), owner = try row.int("owner_pid")
                let ownerGone = owner != pid && !CurrentProcess.exists(Int32(truncatingIfNeeded: owner))
                let leaseOver = try row.int("lease_until_ms") < nowMS
                guard ownerGone || leaseOver else { continue }
                let reason = ownerGone ? "interrupted: the process sending it stopped" : "interrupted: its lease ran out before an answer was recorded"
                try db.query("UPDATE webhook_attempts SET finished_at = ?, error = ? WHERE id = ?",
                             [.text(Timestamp.string(moment)), .text(reason), .integer(id)])
                try db.query("UPDATE webhook_deliveries SET next_attempt_ms = ? WHERE id = ? AND state = 'pending'", [.integer(nowMS), .integer(delivery)])
            }
            // One attempt at a time per endpoint: events reach it in order, and a slow one is not flooded.
            let filter = deliveryID == nil ? """
                d.next_attempt_ms <= ? AND w.disabled_at IS NULL AND NOT EXISTS (SELECT 1 FROM webhook_attempts a
                    JOIN webhook_deliveries o ON o.id = a.delivery_id WHERE o.webhook_id = w.id AND a.finished_at IS NULL)
                """ : "d.id = ?"
            let rows = try db.query("""
                SELECT \(Self.claimColumns.list)
                FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN webhook_events e ON e.id = d.event_id
                WHERE d.state = 'pending' AND \(filter) ORDER BY d.next_attempt_ms, d.id LIMIT ?
                """, [.integer(deliveryID ?? nowMS), .integer(Int64(max(1, limit) * 8))])
            var claims: [Claim] = []
            var endpoints: Set<Int64> = []
            for row in rows where claims.count < max(1, limit) {
                let row = Self.claimColumns.reader(row)
                let id = try row.int("d.id"), webhook = try row.int("d.webhook_id")
                guard endpoints.insert(webhook).inserted else { continue }
                let secret = try row.text("w.secret")
                guard let key = HashDigest(hex: secret)?.bytes else { throw SQLRowError(column: "w.secret", problem: .unreadable("…", expected: "a hex key")) }
                try db.query("INSERT INTO webhook_attempts (delivery_id, owner_pid, started_at, lease_until_ms) VALUES (?, ?, ?, ?)",
                             [.integer(id), .integer(pid), .text(Timestamp.string(moment)), .integer(lease)])
                let attemptID = db.lastInsertRowID
                // Leased: nobody else picks it up until this attempt is recorded or the lease runs out.
                try db.query("UPDATE webhook_deliveries SET next_attempt_ms = ?, last_attempt_at = ? WHERE id = ?",
                             [.integer(lease), .text(Timestamp.string(moment)), .integer(id)])
                claims.append(Claim(attemptID: attemptID, deliveryID: id, webhookID: webhook, messageID: try row.text("d.message_id"),
                                    attempt: Int(try row.int("d.attempts")) + 1, url: try row.text("w.url"),
                                    format: try row.required("w.format", as: Webhook.Format.self), key: key,
                                    allowPrivate: try row.int("w.allow_private") != 0,
                                    event: WebhookBody.Event(type: try row.text("e.type"), payload: try row.text("e.payload"), summary: try row.text("e.summary"),
                                                             link: try row.optionalText("e.link"), timestamp: try row.text("e.created_at"))))
            }
            return claims
        }
    }

    /// What one attempt got.
    struct Outcome: Sendable {
        var status: Int?
        var error: String?
        var retryAfter: Double?
        var isSuccess: Bool { error == nil && status.map { (200 ..< 300).contains($0) } == true }
    }

    func send(_ claim: Claim) -> Outcome {
        let destination: WebhookDestination
        do {
            destination = try WebhookDestination.check(claim.url, allowPrivate: claim.allowPrivate)
        } catch {
            return Outcome(status: nil, error: error.description)
        }
        let body = WebhookBody.bytes(claim.event, format: claim.format)
        let timestamp = Int64(now().timeIntervalSince1970)
        var headers = [HTTPHeaderField("Content-Type", "application/json"), HTTPHeaderField("User-Agent", "betactl-webhooks/1"),
                       HTTPHeaderField("webhook-id", claim.messageID), HTTPHeaderField("webhook-timestamp", String(timestamp))]
        if claim.format == .standard {
            headers.append(HTTPHeaderField("webhook-signature",
                                           WebhookSignature.signature(key: claim.key, messageID: claim.messageID, timestamp: timestamp, body: body)))
        }
        let client = HTTPClient(configuration: .init(timeout: schedule.timeout, connectTimeout: min(schedule.timeout, 10),
                                                     maximumResponseBytes: Self.responseLimit, truncatesLongResponses: true, directHTTPOnly: true))
        do {
            let response = try client.send(HTTPRequest(method: "POST", url: destination.url, headers: headers, body: body,
                                                       connectAddress: destination.address))
            let error = response.isSuccess ? nil : "the endpoint answered \(response.status)"
            return Outcome(status: response.status, error: error, retryAfter: schedule.retryAfter(response.header("Retry-After")))
        } catch {
            return Outcome(status: nil, error: error.description)
        }
    }

    func record(_ claim: Claim, outcome: Outcome) throws {
        let moment = now()
        let stamp = Timestamp.string(moment)
        try home.store.write { db in
            try db.query("UPDATE webhook_attempts SET finished_at = ?, status = ?, error = ? WHERE id = ?",
                         [.text(stamp), .optional(outcome.status.map(Int64.init)), .optional(outcome.error), .integer(claim.attemptID)])
            if outcome.isSuccess {
                try db.query("""
                    UPDATE webhook_deliveries SET state = 'delivered', attempts = ?, last_status = ?, last_error = NULL, finished_at = ?,
                        next_attempt_ms = NULL WHERE id = ?
                    """, [.integer(Int64(claim.attempt)), .optional(outcome.status.map(Int64.init)), .text(stamp), .integer(claim.deliveryID)])
                try db.query("UPDATE webhooks SET failing_since = NULL WHERE id = ?", [.integer(claim.webhookID)])
            } else {
                let next: Int64? = schedule.delay(afterAttempt: claim.attempt).map { delay in
                    WebhookOutbox.milliseconds(moment) + Int64(max(delay, outcome.retryAfter ?? 0) * 1000)
                }
                try db.query("""
                    UPDATE webhook_deliveries SET state = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_ms = ?,
                        finished_at = ? WHERE id = ?
                    """, [.text(next == nil ? "failed" : "pending"), .integer(Int64(claim.attempt)), .optional(outcome.status.map(Int64.init)),
                          .optional(outcome.error), .optional(next), next == nil ? .text(stamp) : .null, .integer(claim.deliveryID)])
                try db.query("UPDATE webhooks SET failing_since = coalesce(failing_since, ?) WHERE id = ?", [.text(stamp), .integer(claim.webhookID)])
                if let since = try db.queryOne("SELECT failing_since FROM webhooks WHERE id = ? AND disabled_at IS NULL",
                                               [.integer(claim.webhookID)])?.string(0).flatMap(Timestamp.date),
                   moment.timeIntervalSince(since) >= schedule.disableAfter {
                    try db.query("UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?",
                                 [.text(stamp), .text("every delivery failed since \(Timestamp.string(since)); last: \(outcome.error ?? "failed")"),
                                  .integer(claim.webhookID)])
                }
            }
            try Self.prune(webhookID: claim.webhookID, db: db)
        }
    }

    /// Keeps the newest `Webhooks.keptDeliveries` finished deliveries of an endpoint.
    static func prune(webhookID: Int64, db: SQLiteConnection) throws {
        try db.query("""
            DELETE FROM webhook_deliveries WHERE webhook_id = ? AND state != 'pending' AND id NOT IN
                (SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?)
            """, [.integer(webhookID), .integer(webhookID), .integer(Int64(Webhooks.keptDeliveries))])
        if db.changes > 0 {
            try db.query("DELETE FROM webhook_events WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)")
        }
    }
}

extension WebhookDeliverer {
    /// The columns of an unfinished attempt, read to take over an interrupted one.
    static let openAttemptColumns = SQLColumns(["id", "delivery_id", "owner_pid", "lease_until_ms"])

    /// The columns a claim reads: the delivery, its endpoint and its event, shared with the decoder.
    static let claimColumns = SQLColumns(["d.id", "d.webhook_id", "d.message_id", "d.attempts", "w.url", "w.format", "w.secret", "w.allow_private",
                                          "e.type", "e.payload", "e.summary", "e.link", "e.created_at"])
}
