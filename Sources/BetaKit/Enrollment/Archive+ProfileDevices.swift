import AppleFormats

extension Archive {
    /// Records the devices an imported profile provisions (in the import's transaction), replacing
    /// what an earlier import of the same UUID recorded.
    static func recordImportedProfileDevices(_ profile: ProvisioningProfile, db: SQLiteConnection) throws {
        try db.query("DELETE FROM profile_devices WHERE profile_uuid = ?", [.text(profile.uuid)])
        for udid in Set(profile.provisionedDeviceIdentifiers.map(\.value)) {
            try db.query("INSERT INTO profile_devices (profile_uuid, udid) VALUES (?, ?)", [.text(profile.uuid), .text(udid)])
        }
    }

    /// Fills `profile_devices` for profiles imported before it existed, from their archived files
    /// (run by the schema migration, inside its transaction). A file that is missing or unreadable
    /// is skipped: its devices stay unknown until the profile is imported again, and `verify` reports
    /// the missing blob anyway.
    static func backfillProfileDevices(_ db: SQLiteConnection) throws {
        guard let file = try db.query("PRAGMA database_list").first(where: { $0.string(1) == "main" })?.string(2),
              let slash = file.lastIndex(of: "/") else { return }
        let blobs = BlobStore(root: String(file[..<slash]) + "/blobs")
        for row in try db.query("SELECT uuid, blob FROM profiles") {
            guard let digest = row.string(1).flatMap(HashDigest.init(hex:)),
                  let mapped = try? MappedFile(path: blobs.path(for: digest)),
                  let profile = try? mapped.withBytes({ bytes in try ProvisioningProfile(bytes: Array(bytes)) }),
                  profile.uuid == row.string(0) else { continue }
            try recordImportedProfileDevices(profile, db: db)
        }
    }
}
