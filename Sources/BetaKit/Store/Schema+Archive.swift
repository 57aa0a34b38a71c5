extension Schema {
    /// Profiles, the content-addressed archive, releases and the symbol index.
    static let archive = Migration(version: 2, name: "archive", sql: """
        -- Every file in blobs/ has a row. pending_pid is set while a publish copies the
        -- file in and cleared in the transaction that makes it visible; a pending row
        -- whose process has died marks an orphan to delete.
        CREATE TABLE blobs (
            sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
            size INTEGER NOT NULL,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            pending_pid INTEGER
        );
        CREATE TABLE profiles (
            uuid TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            team_id TEXT NOT NULL,
            application_identifier TEXT,
            type TEXT NOT NULL CHECK (type IN ('ad-hoc', 'development', 'app-store', 'enterprise')),
            device_count INTEGER,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            imported_at TEXT NOT NULL,
            blob TEXT NOT NULL REFERENCES blobs (sha256)
        );
        CREATE TABLE releases (
            id INTEGER PRIMARY KEY,
            bundle_id TEXT NOT NULL,
            display_name TEXT,
            version TEXT,
            build TEXT,
            minimum_os TEXT,
            source_kind TEXT NOT NULL,
            source_name TEXT NOT NULL,
            package_blob TEXT NOT NULL REFERENCES blobs (sha256),
            icon_blob TEXT REFERENCES blobs (sha256),
            profile_uuid TEXT,
            profile_name TEXT,
            profile_type TEXT,
            profile_expires_at TEXT,
            notes TEXT,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        );
        CREATE TABLE release_groups (
            release_id INTEGER NOT NULL REFERENCES releases (id),
            name TEXT NOT NULL,
            PRIMARY KEY (release_id, name)
        );
        -- One row per executable slice of a release; symbols are looked up by (uuid, arch).
        CREATE TABLE release_slices (
            release_id INTEGER NOT NULL REFERENCES releases (id),
            path TEXT NOT NULL,
            kind TEXT NOT NULL,
            bundle_id TEXT,
            arch TEXT NOT NULL,
            uuid TEXT,
            minimum_os TEXT,
            PRIMARY KEY (release_id, path, arch)
        );
        CREATE INDEX release_slices_uuid ON release_slices (uuid, arch);
        -- Symbols are never deleted: revoking a release keeps them for its crash reports.
        CREATE TABLE symbols (
            uuid TEXT NOT NULL,
            arch TEXT NOT NULL,
            blob TEXT NOT NULL REFERENCES blobs (sha256),
            dsym_name TEXT NOT NULL,
            file_name TEXT NOT NULL,
            added_at TEXT NOT NULL,
            PRIMARY KEY (uuid, arch)
        );
        """)
}
