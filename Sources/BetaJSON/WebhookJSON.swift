import BetaKit

/// The JSON of webhooks and their deliveries, shared by the API and `betactl webhook --json`.
public enum WebhookJSON {
    /// An endpoint (never its secret).
    public struct WebhookItemJSON: Encodable, Sendable {
        /// The webhook's number.
        public var id: Int64
        /// Where deliveries are posted.
        public var url: String
        /// The events it is told about; empty for every event.
        public var events: [String]
        /// `standard`, `slack` or `discord`.
        public var format: String
        /// Whether its URL may resolve inside private networks.
        public var allowPrivate: Bool
        /// `enabled`, `failing` or `disabled`.
        public var state: String
        /// When it was added (ISO 8601).
        public var created: String
        /// Since when every delivery has failed (ISO 8601).
        public var failingSince: String?
        /// When it was disabled (ISO 8601).
        public var disabled: String?
        /// Why it was disabled.
        public var disabledReason: String?
    }

    /// A webhook just added, with its signing secret shown this once.
    public struct CreatedWebhookJSON: Encodable, Sendable {
        /// The webhook.
        public var webhook: WebhookItemJSON
        /// `whsec_…`: verify `webhook-signature` with it.
        public var secret: String
    }

    /// Every webhook.
    public struct WebhookListJSON: Encodable, Sendable {
        /// The webhooks, oldest first.
        public var webhooks: [WebhookItemJSON]

        /// A list.
        public init(webhooks: [WebhookItemJSON]) { self.webhooks = webhooks }
    }

    /// One delivery.
    public struct DeliveryJSON: Encodable, Sendable {
        /// The delivery's number.
        public var id: Int64
        /// The endpoint's number.
        public var webhookId: Int64
        /// The event type.
        public var event: String
        /// The `webhook-id` header of every attempt.
        public var messageId: String
        /// `pending`, `delivered` or `failed`.
        public var state: String
        /// Attempts made.
        public var attempts: Int
        /// The last answer's status.
        public var lastStatus: Int?
        /// Why the last attempt failed.
        public var lastError: String?
        /// When the event happened (ISO 8601).
        public var created: String
        /// When the last attempt was made (ISO 8601).
        public var lastAttempt: String?
        /// When the next attempt is due (ISO 8601), while pending.
        public var nextAttempt: String?
    }

    /// Deliveries, newest first.
    public struct DeliveryListJSON: Encodable, Sendable {
        /// The deliveries.
        public var deliveries: [DeliveryJSON]

        /// A list.
        public init(deliveries: [DeliveryJSON]) { self.deliveries = deliveries }
    }

    /// The JSON of an endpoint.
    public static func webhook(_ hook: Webhook) -> WebhookItemJSON {
        WebhookItemJSON(id: hook.id, url: hook.url, events: hook.events.map(\.rawValue), format: hook.format.rawValue,
                        allowPrivate: hook.allowsPrivate, state: hook.state, created: Timestamp.string(hook.createdAt),
                        failingSince: hook.failingSince.map(Timestamp.string), disabled: hook.disabledAt.map(Timestamp.string),
                        disabledReason: hook.disabledReason)
    }

    /// The JSON of a new endpoint with its secret.
    public static func created(_ created: NewWebhook) -> CreatedWebhookJSON {
        CreatedWebhookJSON(webhook: webhook(created.webhook), secret: created.secret)
    }

    /// The JSON of a delivery.
    public static func delivery(_ delivery: WebhookDelivery) -> DeliveryJSON {
        DeliveryJSON(id: delivery.id, webhookId: delivery.webhookID, event: delivery.event, messageId: delivery.messageID, state: delivery.state,
                     attempts: delivery.attempts, lastStatus: delivery.lastStatus, lastError: delivery.lastError,
                     created: Timestamp.string(delivery.createdAt), lastAttempt: delivery.lastAttemptAt.map(Timestamp.string),
                     nextAttempt: delivery.nextAttemptAt.map(Timestamp.string))
    }
}
