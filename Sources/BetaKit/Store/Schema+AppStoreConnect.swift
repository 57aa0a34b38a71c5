extension Schema {
    /// What App Store Connect last said: its device list (the truth the slot ledger reconciles
    /// with), the ad hoc profiles betactl made there, and small state (team, last sync, rate limit).
    /// The API key itself is not here: it lives in the home's secrets folder, outside backups.
    static let appStoreConnect = Migration(version: 11, name: "app store connect", sql: """
        -- Apple's whole device list as of the last sync, plus devices registered since.
        CREATE TABLE apple_devices (
            apple_id TEXT PRIMARY KEY,
            udid TEXT NOT NULL,
            name TEXT NOT NULL DEFAULT '',
            device_class TEXT NOT NULL DEFAULT '',
            platform TEXT NOT NULL DEFAULT '',
            model TEXT,
            status TEXT NOT NULL CHECK (status IN ('ENABLED', 'DISABLED')),
            added_at TEXT
        );
        CREATE INDEX apple_devices_udid ON apple_devices (udid COLLATE NOCASE);
        -- The ad hoc profile betactl made for each bundle id, the one it deletes when it makes the next.
        CREATE TABLE apple_profiles (
            bundle_id TEXT PRIMARY KEY,
            profile_id TEXT NOT NULL,
            name TEXT NOT NULL,
            uuid TEXT,
            created_at TEXT NOT NULL
        );
        CREATE TABLE apple_state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """)
}
