extension Schema {
    /// API tokens and dashboard sessions. Only SHA-256 digests of the secrets are stored: a copy of
    /// the database (a backup, a stolen disk) lets nobody call the API or take over a session.
    static let admin = Migration(version: 7, name: "admin", sql: """
        CREATE TABLE api_tokens (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            -- Hex SHA-256 of the secret the client sends as `Authorization: Bearer <secret>`.
            digest TEXT NOT NULL UNIQUE CHECK (length(digest) = 64),
            scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
            created_at TEXT NOT NULL,
            last_used_at TEXT,
            revoked_at TEXT
        );
        -- Names are unique among live tokens; a revoked token's name can be reused.
        CREATE UNIQUE INDEX api_tokens_name ON api_tokens (name) WHERE revoked_at IS NULL;
        -- A dashboard login: the session cookie's digest, the token it was opened with (its scope
        -- applies, and revoking the token ends the session), and the CSRF token its forms carry.
        CREATE TABLE admin_sessions (
            digest TEXT PRIMARY KEY CHECK (length(digest) = 64),
            token_id INTEGER NOT NULL REFERENCES api_tokens (id),
            csrf TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            ended_at TEXT
        ) WITHOUT ROWID;
        CREATE INDEX admin_sessions_expiry ON admin_sessions (expires_at);
        """)
}
