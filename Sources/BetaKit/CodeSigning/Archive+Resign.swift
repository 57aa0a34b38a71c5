#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Archive {
    /// The bytes of an imported profile (by UUID, UUID prefix or name).
    public func profileBytes(matching reference: String) throws -> [UInt8] {
        let stored = try storedProfile(matching: reference)
        let path = blobPath(stored.blob)
        guard FileKind(path: path) == .regularFile else { throw ArchiveError.missingBlob(stored.blob.hex) }
        return try MappedFile(path: path).withBytes { Array($0) }
    }

    /// Re-signs release `releaseID` with `profileBytes` through `signer` and publishes the result as
    /// a new release linked to the original, with the original's notes (unless `notes` is given)
    /// and groups; its dSYMs are the original's, since no Mach-O UUID changes (a change is refused
    /// before anything is published). The original release stays as it was; with `supersedes`, the
    /// new release takes its place on testers' pages (the original stays downloadable, and listed
    /// by `releases --all`). `nestedProfileBytes` gives extensions their own profiles, by bundle id.
    ///
    /// The package is never unpacked: files are hashed as they inflate, only what signing changes
    /// (executables, CodeResources, embedded profiles) is written anew, and every other entry is
    /// copied into the new package still compressed.
    public func resign(releaseID: Int64, profileBytes: [UInt8], signer: any CodeSignatureCMSSigning, notes: String?,
                       devices: [Device], now: Date, supersedes: Bool = false, nestedProfileBytes: [String: [UInt8]] = [:]) throws -> ReleaseResult {
        let original = try release(id: releaseID)
        let profile = try ProvisioningProfile(bytes: profileBytes)
        let staging = try makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let package = blobPath(original.packageBlob)
        guard FileKind(path: package) == .regularFile else { throw ArchiveError.missingBlob(original.packageBlob.hex) }
        let archive = try ZipArchive(source: try FileByteSource(path: package))
        let scratch = staging + "/signed"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let workspace = ZipSigningWorkspace(archive: archive, scratch: scratch)
        let apps = Set(workspace.entries.keys.compactMap { path -> String? in
            let parts = path.split(separator: "/", maxSplits: 2)
            guard parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app") else { return nil }
            return String(parts[1])
        })
        guard apps.count == 1, let app = apps.first else {
            throw ResignError.unreadableBundle(path: "release \(releaseID)", reason: "its package holds no single Payload/<Name>.app")
        }
        var bundleSigner = BundleSigner(cms: signer, profile: profile, profileBytes: profileBytes)
        for (bundleID, bytes) in nestedProfileBytes { bundleSigner.nestedProfiles[bundleID] = (try ProvisioningProfile(bytes: bytes), bytes) }
        try bundleSigner.sign(appAt: "Payload/" + app, in: workspace)
        let ipa = staging + "/" + (app.dropLast(4)) + "-resigned.ipa"
        _ = try workspace.writeArchive(to: ipa)
        // The new package is a synced file in the home's tmp/: moved into the archive, not copied.
        // Symbols: the UUIDs are the original's (checked while signing), so whatever dSYMs it lacked
        // were accepted (and recorded) when it was released; they are recorded again, not refused.
        var request = ReleaseRequest(path: ipa, notes: notes ?? original.notes, groups: original.groups,
                                     policy: ReleasePolicy(allowMissingSymbols: true))
        request.movesInput = true
        request.knownResourceSHA256 = workspace.unchangedSHA256
        let result = try self.release(request, devices: devices, now: now)
        try home.store.write { db in
            try Self.linkResign(result.release.id, from: releaseID, supersedes: supersedes, db: db)
        }
        var linked = result
        linked.release = try release(id: result.release.id)
        return linked
    }

    /// Records that release `id` was re-signed from `original` (and whether it supersedes it).
    static func linkResign(_ id: Int64, from original: Int64, supersedes: Bool, db: SQLiteConnection) throws {
        try db.query("""
            INSERT INTO release_resigns (release_id, resigned_from, supersedes) VALUES (?, ?, ?)
            ON CONFLICT (release_id) DO UPDATE SET resigned_from = excluded.resigned_from, supersedes = excluded.supersedes
            """, [.integer(id), .integer(original), .integer(supersedes ? 1 : 0)])
    }
}
