extension Schema {
    /// Crash intake: ingest keys for apps, the reports (raw bytes in blobs/, one row per distinct
    /// report), every upload of them, the images they need symbols for, the processing queue and
    /// the groups. Self-contained: it only adds tables.
    static let crashes = Migration(version: 8, name: "crashes", sql: """
        -- Write-only keys an app's crash reporter sends reports with. The key is kept so that
        -- `crash-key list` can show it again (it ships inside the app anyway); requests are
        -- matched by its SHA-256.
        CREATE TABLE crash_keys (
            id INTEGER PRIMARY KEY,
            bundle_id TEXT NOT NULL,
            key TEXT NOT NULL UNIQUE,
            key_digest TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        );
        -- One row per distinct report (its blob's SHA-256). Everything but the blob, the size and
        -- the times is derived by processing and rewritten when the report is processed again.
        CREATE TABLE crash_reports (
            id INTEGER PRIMARY KEY,
            blob TEXT NOT NULL UNIQUE REFERENCES blobs (sha256),
            size INTEGER NOT NULL,
            file_name TEXT,
            received_at TEXT NOT NULL,
            last_received_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued'
                CHECK (status IN ('queued', 'symbolicated', 'partial', 'unreadable', 'low-memory', 'other')),
            format TEXT,
            bug_type TEXT,
            processed_at TEXT,
            error TEXT,
            process_name TEXT,
            bundle_id TEXT,
            app_version TEXT,
            app_build TEXT,
            os_version TEXT,
            hardware_model TEXT,
            incident_identifier TEXT,
            crashed_at TEXT,
            exception_type TEXT,
            summary TEXT,
            signature_key TEXT,
            release_id INTEGER REFERENCES releases (id),
            tester_id INTEGER REFERENCES testers (id),
            device_udid TEXT
        );
        CREATE INDEX crash_reports_signature ON crash_reports (signature_key, received_at);
        CREATE INDEX crash_reports_release ON crash_reports (release_id);
        CREATE INDEX crash_reports_tester ON crash_reports (tester_id);
        CREATE INDEX crash_reports_incident ON crash_reports (incident_identifier);
        -- Every time a report was sent, by whom and how; a duplicate adds a row here only.
        CREATE TABLE crash_uploads (
            id INTEGER PRIMARY KEY,
            report_id INTEGER NOT NULL REFERENCES crash_reports (id),
            received_at TEXT NOT NULL,
            source TEXT NOT NULL,
            key_id INTEGER REFERENCES crash_keys (id),
            tester_id INTEGER REFERENCES testers (id),
            user_id TEXT,
            contact TEXT,
            description TEXT,
            file_name TEXT
        );
        CREATE INDEX crash_uploads_report ON crash_uploads (report_id);
        -- The app images each report's frames point into, with whether their symbols were found:
        -- archiving a UUID requeues the reports that lack it, a release links the ones that match.
        CREATE TABLE crash_images (
            report_id INTEGER NOT NULL REFERENCES crash_reports (id),
            uuid TEXT NOT NULL,
            arch TEXT NOT NULL DEFAULT '',
            name TEXT NOT NULL,
            has_symbols INTEGER NOT NULL,
            reason TEXT,
            PRIMARY KEY (report_id, uuid, arch)
        ) WITHOUT ROWID;
        CREATE INDEX crash_images_uuid ON crash_images (uuid, has_symbols);
        -- Work for the background processor. A row stays until a processing run that began after
        -- its last requeue (generation) commits its result, so nothing is lost to a crash or a
        -- restart; attempts bounds reports that kill the processor.
        CREATE TABLE crash_queue (
            report_id INTEGER PRIMARY KEY REFERENCES crash_reports (id),
            queued_at TEXT NOT NULL,
            reason TEXT NOT NULL,
            generation INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            claimed_by INTEGER,
            claimed_at TEXT
        );
        -- One row per crash signature seen; counts, dates, releases and testers come from the reports.
        CREATE TABLE crash_groups (
            signature_key TEXT PRIMARY KEY,
            exception_type TEXT NOT NULL,
            frames TEXT NOT NULL,
            title TEXT NOT NULL,
            first_seen_at TEXT NOT NULL
        );
        """)
}
