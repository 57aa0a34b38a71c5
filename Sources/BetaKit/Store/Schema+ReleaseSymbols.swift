extension Schema {
    /// Executable slices published without their symbols, recorded when the release is made, so
    /// `verify` can tell a slice released without its dSYM (under --allow-missing-symbols, or a
    /// framework) from one whose symbols went missing afterwards. Releases made before this step
    /// are recorded from what the archive holds now.
    static let releaseMissingSymbols = Migration(version: 4, name: "release missing symbols", sql: """
        CREATE TABLE release_missing_symbols (
            release_id INTEGER NOT NULL REFERENCES releases (id),
            path TEXT NOT NULL,
            arch TEXT NOT NULL,
            uuid TEXT NOT NULL,
            PRIMARY KEY (release_id, path, arch)
        );
        INSERT INTO release_missing_symbols (release_id, path, arch, uuid)
            SELECT s.release_id, s.path, s.arch, s.uuid FROM release_slices s
            WHERE s.uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM symbols y WHERE y.uuid = s.uuid AND y.arch = s.arch);
        """)
}
