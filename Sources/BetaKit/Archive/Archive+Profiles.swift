#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// An imported profile as listed by `profiles`.
public struct StoredProfile: Sendable, Equatable {
    /// The profile UUID.
    public var uuid: String
    /// The profile name.
    public var name: String
    /// The team.
    public var teamID: String
    /// The application identifier entitlement.
    public var applicationIdentifier: String?
    /// The type.
    public var type: ProfileType
    /// Number of provisioned devices; nil for profiles without a device list.
    public var deviceCount: Int?
    /// Expiry.
    public var expiresAt: Date
    /// When it was imported.
    public var importedAt: Date
    /// The blob holding the original file.
    public var blob: HashDigest
}

extension Archive {
    /// What `importProfile` did.
    public struct ProfileImport: Sendable {
        /// The parsed profile.
        public var profile: ProvisioningProfile
        /// False when a profile with this UUID was already imported (it is replaced).
        public var isNew: Bool
    }

    /// Parses and stores a profile file; refuses damaged files with the parser's message.
    public func importProfile(bytes: [UInt8], now: Date) throws -> ProfileImport {
        let profile = try ProvisioningProfile(bytes: bytes)
        let staging = try makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let digest = SHA256.hash(bytes)
        let entry = (digest, UInt64(bytes.count), "profile")
        try markPending([entry], now: now)
        _ = try blobs.store(bytes, staging: staging)
        let isNew: Bool = try home.store.write { db in
            try commitBlobs([entry], now: now, db: db)
            let existed = try db.queryOne("SELECT 1 FROM profiles WHERE uuid = ?", [.text(profile.uuid)]) != nil
            try db.query("""
                INSERT INTO profiles (uuid, name, team_id, application_identifier, type, device_count, created_at, expires_at, imported_at, blob)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, team_id = excluded.team_id,
                    application_identifier = excluded.application_identifier, type = excluded.type, device_count = excluded.device_count,
                    created_at = excluded.created_at, expires_at = excluded.expires_at, imported_at = excluded.imported_at, blob = excluded.blob
                """, [.text(profile.uuid), .text(profile.name), .text(profile.teamIdentifier), .optional(profile.applicationIdentifier),
                      .text(profile.type.rawValue), .optional(profile.provisionedDevices.map { Int64($0.count) }),
                      .text(Timestamp.string(profile.creationDate)), .text(Timestamp.string(profile.expirationDate)),
                      .text(Timestamp.string(now)), .text(digest.hex)])
            try Self.recordImportedProfileDevices(profile, db: db)
            try WebhookOutbox.profile(.profileImported, uuid: profile.uuid, db: db, now: now, extra: [("replaced", .bool(existed))])
            return !existed
        }
        return ProfileImport(profile: profile, isNew: isNew)
    }

    /// Every imported profile, newest expiry first.
    public func profiles() throws -> [StoredProfile] {
        try home.store.read { db in
            try db.query("SELECT \(Self.profileColumns.list) FROM profiles ORDER BY expires_at DESC, name").map { row throws(SQLRowError) in
                let row = Self.profileColumns.reader(row)
                let text = try row.text("blob")
                guard let blob = HashDigest(hex: text) else { throw SQLRowError(column: "blob", problem: .unreadable(text, expected: "a SHA-256 digest")) }
                return StoredProfile(uuid: try row.text("uuid"), name: try row.text("name"), teamID: try row.text("team_id"),
                                     applicationIdentifier: try row.optionalText("application_identifier"), type: try row.required("type", as: ProfileType.self),
                                     deviceCount: try row.optionalInt("device_count").map(Int.init), expiresAt: try row.date("expires_at"),
                                     importedAt: try row.date("imported_at"), blob: blob)
            }
        }
    }

    /// Finds an imported profile by UUID (or UUID prefix) or exact name, case-insensitively.
    public func storedProfile(matching reference: String) throws -> StoredProfile {
        let all = try profiles()
        let key = reference.lowercased()
        if let exact = all.first(where: { $0.uuid == key }) { return exact }
        let byName = all.filter { $0.name.lowercased() == key }
        if byName.count == 1, let only = byName.first { return only }
        if byName.count > 1 { throw ArchiveError.ambiguousProfile(reference, matches: byName.map(\.uuid)) }
        let byPrefix = all.filter { $0.uuid.hasPrefix(key) }
        if byPrefix.count == 1, let only = byPrefix.first, key.count >= 4 { return only }
        if byPrefix.count > 1 { throw ArchiveError.ambiguousProfile(reference, matches: byPrefix.map(\.uuid)) }
        throw ArchiveError.unknownProfile(reference, known: all.map { "\($0.name) (\($0.uuid))" })
    }

    /// Loads and parses an imported profile.
    public func profile(matching reference: String) throws -> ProvisioningProfile {
        let stored = try storedProfile(matching: reference)
        let path = blobs.path(for: stored.blob)
        guard FileKind(path: path) == .regularFile else { throw ArchiveError.missingBlob(stored.blob.hex) }
        return try ProvisioningProfile(bytes: MappedFile(path: path).withBytes { Array($0) })
    }
}

extension Archive {
    /// The columns `profiles()` reads, shared with its decoder.
    static let profileColumns = SQLColumns(["uuid", "name", "team_id", "application_identifier", "type", "device_count", "expires_at", "imported_at", "blob"])
}
