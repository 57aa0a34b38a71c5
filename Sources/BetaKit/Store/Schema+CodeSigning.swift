extension Schema {
    /// Code signing: the distribution identity builds are re-signed with (a separate thing from the
    /// enrolment signing identity), and the link from a re-signed release to the one it came from.
    /// Self-contained: it only adds tables.
    static let codeSigning = Migration(version: 12, name: "code signing", sql: """
        -- At most one row: the Apple distribution certificate (then its chain) and its key.
        CREATE TABLE code_signing_identity (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            certificate_pem TEXT NOT NULL,
            private_key_pem TEXT NOT NULL,
            subject TEXT NOT NULL,
            sha1 TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            chain_count INTEGER NOT NULL,
            imported_at TEXT NOT NULL
        );
        -- A release made by `resign` names the release it re-signed.
        CREATE TABLE release_resigns (
            release_id INTEGER PRIMARY KEY REFERENCES releases (id),
            resigned_from INTEGER NOT NULL REFERENCES releases (id)
        );
        """)
}
