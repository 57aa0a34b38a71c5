extension Schema {
    /// Webhook endpoints, the outbox of events written in the same transaction as the change that
    /// caused them, one delivery per event and endpoint, and each attempt (recorded before it is
    /// sent, so a crash between sending and recording is retried under the same `webhook-id`).
    static let webhooks = Migration(version: 13, name: "webhooks", sql: """
        CREATE TABLE webhooks (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL,
            events TEXT NOT NULL,
            format TEXT NOT NULL,
            secret TEXT NOT NULL,
            allow_private INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            failing_since TEXT,
            disabled_at TEXT,
            disabled_reason TEXT
        );
        CREATE TABLE webhook_events (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            payload TEXT NOT NULL,
            summary TEXT NOT NULL,
            link TEXT,
            created_at TEXT NOT NULL
        );
        CREATE TABLE webhook_deliveries (
            id INTEGER PRIMARY KEY,
            webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
            event_id INTEGER NOT NULL REFERENCES webhook_events (id),
            message_id TEXT NOT NULL UNIQUE,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_ms INTEGER,
            last_attempt_at TEXT,
            last_status INTEGER,
            last_error TEXT,
            created_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_ms);
        CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (webhook_id, id);
        CREATE TABLE webhook_attempts (
            id INTEGER PRIMARY KEY,
            delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
            owner_pid INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            lease_until_ms INTEGER NOT NULL,
            finished_at TEXT,
            status INTEGER,
            error TEXT
        );
        CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);
        CREATE TABLE webhook_profile_notices (
            profile_uuid TEXT NOT NULL,
            days INTEGER NOT NULL,
            sent_at TEXT NOT NULL,
            PRIMARY KEY (profile_uuid, days)
        );
        """)
}
