extension Schema {
    /// Settings, testers, their groups and devices.
    static let roster = Migration(version: 1, name: "roster", sql: """
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE testers (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            email TEXT COLLATE NOCASE,
            token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            removed_at TEXT
        );
        -- Emails are unique among current testers; a removed tester's email can be reused.
        CREATE UNIQUE INDEX testers_email ON testers (email) WHERE removed_at IS NULL AND email IS NOT NULL;
        CREATE TABLE tester_groups (
            tester_id INTEGER NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            PRIMARY KEY (tester_id, name)
        );
        -- One row per UDID ever registered. Removal only stamps removed_at, because a
        -- removed device keeps its slot until the membership year renews.
        CREATE TABLE devices (
            udid TEXT PRIMARY KEY,
            tester_id INTEGER REFERENCES testers (id),
            name TEXT NOT NULL DEFAULT '',
            family TEXT NOT NULL CHECK (family IN ('iphone', 'ipad', 'ipod', 'watch', 'tv', 'mac', 'vision')),
            model TEXT,
            added_at TEXT NOT NULL,
            removed_at TEXT
        );
        CREATE INDEX devices_tester ON devices (tester_id);
        -- The slot ledger: one row per period a device was registered in a family. A device
        -- takes a slot in a membership year if any of its periods overlaps that year, so
        -- removal never frees a slot early and re-adding within the year takes no new one.
        CREATE TABLE device_history (
            id INTEGER PRIMARY KEY,
            udid TEXT NOT NULL REFERENCES devices (udid),
            family TEXT NOT NULL,
            added_at TEXT NOT NULL,
            removed_at TEXT
        );
        CREATE INDEX device_history_family ON device_history (family, removed_at);
        CREATE INDEX device_history_udid ON device_history (udid);
        """)
}
