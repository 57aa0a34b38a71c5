extension Schema {
    /// The durable job queue (generic: a kind, a state, the step reached, attempts, the next
    /// attempt's time, the last error and a JSON payload each step updates as it goes), and the
    /// mark that a re-signed release supersedes the one it came from (the automatic provisioning
    /// flow's releases do; `betactl resign`'s do not). Self-contained: it adds a table and a column.
    static let provisioningJobs = Migration(version: 14, name: "provisioning jobs", sql: """
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled')),
            step TEXT NOT NULL DEFAULT '',
            subject TEXT,
            payload TEXT NOT NULL DEFAULT '{}',
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_ms INTEGER,
            last_error TEXT,
            claimed_by INTEGER,
            claimed_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE INDEX jobs_due ON jobs (state, next_attempt_ms);
        CREATE INDEX jobs_subject ON jobs (kind, subject);
        ALTER TABLE release_resigns ADD COLUMN supersedes INTEGER NOT NULL DEFAULT 0;
        """)
}
