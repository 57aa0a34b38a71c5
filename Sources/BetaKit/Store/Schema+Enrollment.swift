#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Schema {
    /// Device enrolment: the challenges Profile Service profiles carry, the devices registered from
    /// their replies (pending until an ad hoc profile includes them), the result each reply led to,
    /// the devices of imported profiles, and the identity enrolment profiles are signed with.
    static let enrollment = Migration(version: 6, name: "enrollment", sql: """
        -- One row per enrolment profile served. The challenge itself is secret and single-use: only
        -- its SHA-256 (hex) is kept, like testers' link tokens.
        CREATE TABLE enrollment_challenges (
            digest TEXT PRIMARY KEY,
            tester_id INTEGER NOT NULL REFERENCES testers (id),
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            used_at TEXT
        ) WITHOUT ROWID;
        CREATE INDEX enrollment_challenges_tester ON enrollment_challenges (tester_id, expires_at);
        -- Devices registered by enrolment, with what they reported about themselves.
        CREATE TABLE enrolled_devices (
            udid TEXT PRIMARY KEY REFERENCES devices (udid),
            tester_id INTEGER REFERENCES testers (id),
            product TEXT,
            os_build TEXT,
            serial TEXT,
            imei TEXT,
            device_name TEXT,
            enrolled_at TEXT NOT NULL
        ) WITHOUT ROWID;
        -- What each reply led to, for the page the device's browser is sent to. The reference in that
        -- page's URL is random, so a UDID never appears in a URL.
        CREATE TABLE enrollment_results (
            reference TEXT PRIMARY KEY,
            tester_id INTEGER NOT NULL REFERENCES testers (id),
            outcome TEXT NOT NULL,
            udid TEXT,
            device_name TEXT,
            model TEXT,
            family TEXT,
            reused_slot INTEGER NOT NULL DEFAULT 0,
            slots_used INTEGER,
            slots_limit INTEGER,
            renews TEXT,
            detail TEXT,
            created_at TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX enrollment_results_created ON enrollment_results (created_at);
        -- The devices each imported profile provisions, so a registered device can be told pending
        -- (in no ad hoc profile yet) without reading every profile file.
        CREATE TABLE profile_devices (
            profile_uuid TEXT NOT NULL REFERENCES profiles (uuid),
            udid TEXT NOT NULL,
            PRIMARY KEY (profile_uuid, udid)
        ) WITHOUT ROWID;
        CREATE INDEX profile_devices_udid ON profile_devices (udid);
        CREATE INDEX release_devices_udid ON release_devices (udid);
        -- The identity enrolment profiles are signed with (at most one). The key is stored as
        -- unencrypted PEM: the home is private to its user (0600/0700), as the rest of it is.
        CREATE TABLE signing_identity (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            certificate_pem TEXT NOT NULL,
            private_key_pem TEXT NOT NULL,
            subject TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            chain_count INTEGER NOT NULL DEFAULT 0,
            imported_at TEXT NOT NULL
        );
        """, backfill: { db in try Archive.backfillProfileDevices(db) })
}
