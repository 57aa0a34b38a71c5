extension Schema {
    /// Archived symbol files that a better copy replaced. Source data is never lost: the old blob
    /// stays referenced here (and stays in blobs/), so it can always be looked at again.
    static let symbolHistory = Migration(version: 3, name: "symbol history", sql: """
        CREATE TABLE replaced_symbols (
            uuid TEXT NOT NULL,
            arch TEXT NOT NULL,
            blob TEXT NOT NULL REFERENCES blobs (sha256),
            dsym_name TEXT NOT NULL,
            file_name TEXT NOT NULL,
            added_at TEXT NOT NULL,
            replaced_at TEXT NOT NULL,
            reason TEXT NOT NULL
        );
        CREATE INDEX replaced_symbols_key ON replaced_symbols (uuid, arch);
        """)
}
