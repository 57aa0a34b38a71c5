#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// One completed download of a release's package.
public struct DownloadRecord: Sendable, Equatable {
    /// The release downloaded.
    public var releaseID: Int64
    /// Who downloaded it, when it came through a tester's link.
    public var testerID: Int64?
    /// The tester's name at the time of listing.
    public var testerName: String?
    /// The device, when the installer's request identified one of the tester's devices.
    public var udid: String?
    /// That device's name.
    public var deviceName: String?
    /// The client's User-Agent (iOS's installer names the device model and OS build).
    public var userAgent: String?
    /// When the last byte was handed to the network.
    public var downloadedAt: Date
}

extension Archive {
    /// Records which devices `profile` provisions for release `id` (in the publishing transaction).
    static func recordProfileDevices(_ profile: ProvisioningProfile?, release id: Int64, db: SQLiteConnection) throws {
        for udid in Set(profile?.provisionedDeviceIdentifiers.map(\.value) ?? []) {
            try db.query("INSERT OR IGNORE INTO release_devices (release_id, udid) VALUES (?, ?)", [.integer(id), .text(udid)])
        }
        try db.query("UPDATE releases SET profile_all_devices = ?, profile_devices_recorded = 1 WHERE id = ?",
                     [.integer(profile?.provisionsAllDevices == true ? 1 : 0), .integer(id)])
    }

    /// Reads the embedded profile of every release published before betactl recorded profile devices,
    /// from its archived package, and records its devices. Returns how many releases were brought up
    /// to date; a package that cannot be read is skipped (its release keeps "unknown" device coverage).
    @discardableResult
    public func recordMissingProfileDevices() throws -> Int {
        let pending: [(Int64, HashDigest)] = try home.store.read { db in
            try db.query("SELECT id, package_blob FROM releases WHERE profile_devices_recorded = 0").compactMap { row in
                guard let id = row.int(0), let digest = row.string(1).flatMap(HashDigest.init(hex:)) else { return nil }
                return (id, digest)
            }
        }
        var recorded = 0
        for (id, digest) in pending {
            let staging = try makeStagingDirectory()
            defer { try? FileManager.default.removeItem(atPath: staging) }
            guard let artifact = try? ArtifactIngestor(workDirectory: staging).ingest(path: blobPath(digest)),
                  let app = artifact.app else { continue }
            try home.store.write { db -> Void in try Self.recordProfileDevices(app.profile, release: id, db: db) }
            recorded += 1
        }
        return recorded
    }

    /// Records a completed download of release `releaseID`.
    public func recordDownload(releaseID: Int64, testerID: Int64?, udid: String?, userAgent: String?, at now: Date) throws {
        try home.store.write { db in
            try db.query("INSERT INTO downloads (release_id, tester_id, udid, user_agent, downloaded_at) VALUES (?, ?, ?, ?, ?)",
                         [.integer(releaseID), .optional(testerID), .optional(udid), .optional(userAgent.map { String($0.prefix(512)) }),
                          .text(Timestamp.string(now))])
            try WebhookOutbox.release(.releaseDownloaded, id: releaseID, db: db, now: now, extra: [("download", try WebhookOutbox.downloadFields(testerID: testerID, udid: udid, db: db))])
        }
    }

    /// The completed downloads of a release, oldest first.
    public func downloads(ofRelease id: Int64) throws -> [DownloadRecord] {
        try home.store.read { db in
            try db.query("""
                SELECT d.release_id, d.tester_id, t.name, d.udid, v.name, d.user_agent, d.downloaded_at
                FROM downloads d LEFT JOIN testers t ON t.id = d.tester_id LEFT JOIN devices v ON v.udid = d.udid
                WHERE d.release_id = ? ORDER BY d.downloaded_at, d.id
                """, [.integer(id)]).map {
                DownloadRecord(releaseID: $0.int(0) ?? id, testerID: $0.int(1), testerName: $0.string(2), udid: $0.string(3),
                               deviceName: $0.string(4), userAgent: $0.string(5),
                               downloadedAt: $0.string(6).flatMap(Timestamp.date) ?? .distantPast)
            }
        }
    }
}
