#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An endpoint told about events.
public struct Webhook: Sendable, Equatable, Identifiable {
    /// What a delivery's body looks like.
    public enum Format: String, Sendable, CaseIterable {
        /// Standard Webhooks: a signed JSON envelope `{type, timestamp, data}`.
        case standard
        /// Slack's incoming-webhook JSON (`text` and `blocks`); unsigned, Slack cannot verify.
        case slack
        /// Discord's webhook JSON (`content` and `embeds`); unsigned, Discord cannot verify.
        case discord
    }

    /// The webhook's number.
    public var id: Int64
    /// Where deliveries are posted.
    public var url: String
    /// The events it is told about; empty means every event.
    public var events: [WebhookEvent]
    /// The body format.
    public var format: Format
    /// Whether its URL may resolve inside private networks.
    public var allowsPrivate: Bool
    /// When it was added.
    public var createdAt: Date
    /// Since when every delivery has failed, if they have.
    public var failingSince: Date?
    /// When it was disabled after failing for a day, if it was.
    public var disabledAt: Date?
    /// Why it was disabled.
    public var disabledReason: String?

    /// Whether it is told about `event` (a test is always sent).
    public func wants(_ event: WebhookEvent) -> Bool {
        event == .webhookTest || events.isEmpty || events.contains(event)
    }

    /// `enabled`, `failing` or `disabled`.
    public var state: String { disabledAt != nil ? "disabled" : failingSince != nil ? "failing" : "enabled" }
}

/// A new webhook with its signing secret, which is shown only now.
public struct NewWebhook: Sendable, Equatable {
    /// The webhook.
    public var webhook: Webhook
    /// `whsec_` and the base64 key: receivers verify `webhook-signature` with it.
    public var secret: String
}

/// One event's delivery to one endpoint, with its attempts so far.
public struct WebhookDelivery: Sendable, Equatable, Identifiable {
    /// The delivery's number.
    public var id: Int64
    /// The endpoint.
    public var webhookID: Int64
    /// The event.
    public var event: String
    /// The `webhook-id` header, the same on every attempt: receivers deduplicate by it.
    public var messageID: String
    /// `pending`, `delivered` or `failed`.
    public var state: String
    /// Attempts made.
    public var attempts: Int
    /// The last answer's status, if one came.
    public var lastStatus: Int?
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// When the event happened.
    public var createdAt: Date
    /// When the last attempt was made.
    public var lastAttemptAt: Date?
    /// When the next attempt is due, while pending.
    public var nextAttemptAt: Date?
}
