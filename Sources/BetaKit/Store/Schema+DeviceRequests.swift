extension Schema {
    /// Enrolment as requests: a device that enrols itself waits here, taking no slot, until the
    /// admin approves it (then it goes through the roster's slot rule) or rejects it; and the rule
    /// that approves some requests by itself. Self-contained: it only adds tables.
    static let deviceRequests = Migration(version: 9, name: "device requests", sql: """
        -- One row per enrolment request; decided ones stay for the record. At most one open request
        -- per device.
        CREATE TABLE device_requests (
            id INTEGER PRIMARY KEY,
            udid TEXT NOT NULL,
            tester_id INTEGER NOT NULL REFERENCES testers (id),
            family TEXT NOT NULL,
            product TEXT,
            os_build TEXT,
            serial TEXT,
            imei TEXT,
            device_name TEXT,
            verified INTEGER NOT NULL DEFAULT 1,
            requested_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'rejected')),
            decided_at TEXT
        );
        CREATE UNIQUE INDEX device_requests_open_udid ON device_requests (udid) WHERE status = 'open';
        CREATE INDEX device_requests_tester ON device_requests (tester_id, status);
        -- The approval rule (at most one row; none means every request waits for the admin):
        -- 'all' approves every request, 'group' those of testers in group_name.
        CREATE TABLE device_approval_rule (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            mode TEXT NOT NULL CHECK (mode IN ('all', 'group')),
            group_name TEXT,
            set_at TEXT NOT NULL
        );
        """)
}
