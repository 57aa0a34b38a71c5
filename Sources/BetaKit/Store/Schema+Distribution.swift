extension Schema {
    /// What the tester pages need: tester links looked up by digest, the devices each release's profile
    /// provisions, and a record of completed downloads.
    static let distribution = Migration(version: 5, name: "distribution", sql: """
        -- The SHA-256 of each tester's link token, hex. Pages look testers up by this digest, so no
        -- comparison ever runs over the secret itself.
        ALTER TABLE testers ADD COLUMN token_digest TEXT;
        CREATE UNIQUE INDEX testers_token_digest ON testers (token_digest);
        -- The devices in each release's embedded profile, so a page can say which of a tester's
        -- devices a build will install on. profile_devices_recorded is 0 for releases published before
        -- this table existed until the profile is read from the archived package.
        ALTER TABLE releases ADD COLUMN profile_all_devices INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE releases ADD COLUMN profile_devices_recorded INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE release_devices (
            release_id INTEGER NOT NULL REFERENCES releases (id),
            udid TEXT NOT NULL,
            PRIMARY KEY (release_id, udid)
        ) WITHOUT ROWID;
        -- One row per completed download of a release's package (install tracking).
        CREATE TABLE downloads (
            id INTEGER PRIMARY KEY,
            release_id INTEGER NOT NULL REFERENCES releases (id),
            tester_id INTEGER REFERENCES testers (id),
            udid TEXT,
            user_agent TEXT,
            downloaded_at TEXT NOT NULL
        );
        CREATE INDEX downloads_release ON downloads (release_id, downloaded_at);
        """, backfill: { db in
            for row in try db.query("SELECT id, token FROM testers WHERE token_digest IS NULL") {
                guard let id = row.int(0), let token = row.string(1) else { continue }
                try db.query("UPDATE testers SET token_digest = ? WHERE id = ?", [.text(InviteToken.digest(token)), .integer(id)])
            }
        })
}
