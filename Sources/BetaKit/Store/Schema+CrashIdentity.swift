extension Schema {
    /// Crash reports keyed by their own identity (`Incident Identifier`, `incident_id`, KSCrash
    /// `report.id`) as well as by their bytes: the same crash sent by two clients that frame it
    /// differently is one report with two uploads. Reports stored before have it filled from the
    /// incident identifier processing read.
    static let crashIdentity = Migration(version: 10, name: "crash identity", sql: """
        ALTER TABLE crash_reports ADD COLUMN identity TEXT;
        UPDATE crash_reports SET identity = (CASE WHEN bug_type IS NULL OR bug_type IN ('109', '309') THEN 'crash:' ELSE 'ips-' || bug_type || ':' END)
                || upper(trim(incident_identifier))
            WHERE incident_identifier IS NOT NULL AND trim(incident_identifier) <> '' AND length(incident_identifier) <= 128;
        CREATE INDEX crash_reports_identity ON crash_reports (identity);
        """)
}
