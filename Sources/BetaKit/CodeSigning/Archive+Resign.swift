#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    public func resign(releaseID: Int64, profileBytes: [UInt8], signer: any CodeSignatureCMSSigning, notes: String?,
                       devices: [Device], now: Date, supersedes: Bool = false, nestedProfileBytes: [String: [UInt8]] = [:]) throws -> ReleaseResult {
        let original = try release(id: releaseID)
        let profile = try ProvisioningProfile(bytes: profileBytes)
        let staging = try makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let unpacked = staging + "/unpacked"
        let package = blobPath(original.packageBlob)
        guard FileKind(path: package) == .regularFile else { throw ArchiveError.missingBlob(original.packageBlob.hex) }
        let archive = try ZipArchive(source: try FileByteSource(path: package))
        try Self.extract(archive, to: unpacked)
        let apps = ((try? directoryEntries(unpacked + "/Payload")) ?? []).filter { $0.hasSuffix(".app") }
        guard apps.count == 1, let app = apps.first else {
            throw ResignError.unreadableBundle(path: "release \(releaseID)", reason: "its package holds no single Payload/<Name>.app")
        }
        var bundleSigner = BundleSigner(cms: signer, profile: profile, profileBytes: profileBytes)
        for (bundleID, bytes) in nestedProfileBytes { bundleSigner.nestedProfiles[bundleID] = (try ProvisioningProfile(bytes: bytes), bytes) }
        try bundleSigner.sign(appAt: unpacked + "/Payload/" + app, name: "Payload/" + app)
        let ipa = staging + "/" + (app.dropLast(4)) + "-resigned.ipa"
        _ = try IPAPackager.package(input: unpacked + "/Payload", appBundlePath: "Payload/" + app, to: ipa)
        let result = try self.release(ReleaseRequest(path: ipa, notes: notes ?? original.notes, groups: original.groups),
                                      devices: devices, now: now)
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

    /// Writes every entry of `archive` under `directory`: folders, files with their mode, links.
    static func extract(_ archive: ZipArchive, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for entry in archive.entries where !entry.name.hasPrefix("__MACOSX/") {
            let target = directory + "/" + entry.name
            if entry.isDirectory {
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
                continue
            }
            let parent = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            if entry.isSymbolicLink {
                let destination = String(decoding: try archive.contents(of: entry, maxSize: 4096), as: UTF8.self)
                guard symlink(destination, target) == 0 else { throw FileSystemError(operation: "link", path: target, errno: errno) }
                continue
            }
            let mode = entry.madeByHost == 3 && entry.externalAttributes >> 16 != 0 ? mode_t(entry.externalAttributes >> 16 & 0o777) : 0o644
            let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode | 0o200)
            guard fd >= 0 else { throw FileSystemError(operation: "create", path: target, errno: errno) }
            defer { close(fd) }
            try archive.extract(entry) { chunk in try FileDigest.writeAll(fd, chunk, path: target) }
        }
    }
}
