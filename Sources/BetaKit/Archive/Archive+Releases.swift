#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// What `release` was asked to do.
public struct ReleaseRequest: Sendable {
    /// The .ipa or .xcarchive.
    public var path: String
    /// Extra dSYM inputs.
    public var dsymPaths: [String]
    /// Release notes.
    public var notes: String?
    /// Target groups.
    public var groups: [String]
    /// What validation tolerates.
    public var policy: ReleasePolicy
    /// Publish even when a release with the same package (the same SHA-256) exists.
    public var again: Bool
    /// The .ipa at `path` is a temporary file (an upload, already synced to disk in the home's
    /// `tmp/`) that may be moved into the archive instead of copied: the bytes are written once.
    public var movesInput = false
    /// The SHA-256 of the .ipa at `path` when the caller computed it while writing the file (an
    /// upload): the file is then not read again to hash it.
    public var inputSHA256: HashDigest?
    /// SHA-256s of resource files of the .ipa that the caller computed while writing it (`resign`).
    var knownResourceSHA256: [String: [UInt8]] = [:]

    /// Creates a request.
    public init(path: String, dsymPaths: [String] = [], notes: String? = nil, groups: [String] = [],
                policy: ReleasePolicy = ReleasePolicy(), again: Bool = false) {
        self.path = path
        self.dsymPaths = dsymPaths
        self.notes = notes
        self.groups = groups
        self.policy = policy
        self.again = again
    }
}

/// A published release and the warnings its validation produced.
public struct ReleaseResult: Sendable {
    /// The new release.
    public var release: Release
    /// Validation, accepted, with its warnings and recorded missing symbols.
    public var validation: ReleaseValidation
    /// Symbol keys newly added to the archive.
    public var addedSymbols: [SymbolKey]
    /// The first earlier release of the same package, when `again` published it once more.
    public var earlierRelease: Int64?
}

/// Thrown inside the publishing transaction, where the earlier release cannot be read yet.
private struct RepeatedPackage: Error {
    var releaseID: Int64
}

extension Archive {
    /// Validates and publishes a build atomically; refuses with every reason at once.
    public func release(_ request: ReleaseRequest, devices: [Device], now: Date, progress: IngestProgressHandler? = nil) throws -> ReleaseResult {
        try cleanOrphans()
        let staging = try makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let packageCopy = "\(staging)/package"
        var ingestor = ArtifactIngestor(workDirectory: staging, progress: progress)
        ingestor.knownResourceSHA256 = request.knownResourceSHA256
        // An .ipa is archived as it is, copied while it is hashed; an .xcarchive is packaged into an ipa below.
        if request.path.lowercased().hasSuffix(".ipa") && !request.movesInput { ingestor.copyInputTo = packageCopy }
        if request.path.lowercased().hasSuffix(".ipa") { ingestor.knownSHA256 = request.inputSHA256 }
        let build = try ingestor.ingest(path: request.path)
        ingestor.copyInputTo = nil
        ingestor.knownResourceSHA256 = [:]
        // The same build is the same package: an .ipa is known by its hash now, before any
        // further work; a packaged .xcarchive is checked once packaged, below.
        if build.kind != .xcarchive, let digest = build.sha256 { try refuseRepeat(of: digest, again: request.again) }
        let dsyms = try request.dsymPaths.map { path -> IngestedArtifact in
            let artifact = try ingestor.ingest(path: path)
            guard !artifact.dwarfFiles.isEmpty else { throw ArchiveError.noSymbols(path) }
            return artifact
        }
        var available = try archivedSymbolKeys().union(build.symbolKeys)
        for dsym in dsyms { available.formUnion(dsym.symbolKeys) }
        let validation = ReleaseValidator.validate(build: build, availableSymbols: available, devices: devices, policy: request.policy, now: now)
        guard validation.isAccepted, let app = build.app else { throw ArchiveError.refused(validation) }
        var staged = StagedBlobs()
        let packageDigest: HashDigest
        if request.movesInput, build.kind != .xcarchive, request.path.lowercased().hasSuffix(".ipa") {
            do { try FileSystem.rename(request.path, to: packageCopy) } catch {
                throw FileSystemError(operation: "move", path: request.path, errno: error.errno)
            }
        }
        if build.kind == .xcarchive {
            let ipa = "\(staging)/package-ipa"
            let packaged = try IPAPackager.package(input: request.path, appBundlePath: app.bundlePath, to: ipa)
            packageDigest = packaged.digest
            staged.add(staged: ipa, digest: packaged.digest, size: packaged.size, kind: "ipa")
        } else if let digest = build.sha256, FileKind(path: packageCopy) == .regularFile {
            packageDigest = digest
            staged.add(staged: packageCopy, digest: digest, size: build.size, kind: "ipa")
        } else {
            packageDigest = try staged.copy(request.path, kind: "ipa", staging: staging)
        }
        if build.kind == .xcarchive { try refuseRepeat(of: packageDigest, again: request.again) }
        let earlier = try releases(withPackage: packageDigest).first?.id
        let icon = try app.iconPNG.map { try staged.write($0, kind: "icon", staging: staging) }
        let symbolRows = try stageSymbols([build] + dsyms, into: &staged, staging: staging)
        try staged.publish(to: self, now: now)
        let groups = try Roster.validate(groups: request.groups)
        let profile = app.profile
        let published: (Int64, [SymbolKey])
        do {
            published = try home.store.write { db in
                // Checked again where it counts: a concurrent `release` of the same build may have
                // committed since the check above.
                if !request.again, let row = try db.queryOne("SELECT id FROM releases WHERE package_blob = ? ORDER BY id LIMIT 1",
                                                             [.text(packageDigest.hex)]), let id = row.int(0) {
                    throw RepeatedPackage(releaseID: id)
                }
                try commitBlobs(staged.registrations, now: now, db: db)
                try db.query("""
                    INSERT INTO releases (bundle_id, display_name, version, build, minimum_os, source_kind, source_name, package_blob, icon_blob,
                        profile_uuid, profile_name, profile_type, profile_expires_at, notes, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(app.info.bundleIdentifier), .optional(app.info.displayName), .optional(app.info.shortVersion),
                          .optional(app.info.buildVersion), .optional(app.info.minimumOSVersion), .text(build.kind.rawValue),
                          .text(request.path.split(separator: "/").last.map(String.init) ?? request.path), .text(packageDigest.hex),
                          .optional(icon?.hex), .optional(profile?.uuid), .optional(profile?.name), .optional(profile?.type.rawValue),
                          .optional(profile.map { Timestamp.string($0.expirationDate) }), .optional(request.notes), .text(Timestamp.string(now))])
                guard let id = try db.queryOne("SELECT last_insert_rowid()")?.int(0) else { throw ArchiveError.unknownRelease("new") }
                for group in groups { try db.query("INSERT INTO release_groups (release_id, name) VALUES (?, ?)", [.integer(id), .text(group)]) }
                for executable in app.executables {
                    for slice in executable.slices {
                        try db.query("INSERT OR IGNORE INTO release_slices (release_id, path, kind, bundle_id, arch, uuid, minimum_os) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                     [.integer(id), .text(executable.path), .text(executable.kind.rawValue), .optional(executable.bundleIdentifier),
                                      .text(slice.architecture.name), .optional(slice.uuid?.uuidString), .optional(slice.minimumOS)])
                    }
                }
                let added = try Self.insertSymbols(symbolRows, now: now, db: db)
                try Self.recordProfileDevices(profile, release: id, db: db)
                // What is still without symbols now is recorded as released without them (see `verify`).
                try db.query("""
                    INSERT OR IGNORE INTO release_missing_symbols (release_id, path, arch, uuid)
                    SELECT s.release_id, s.path, s.arch, s.uuid FROM release_slices s
                    WHERE s.release_id = ? AND s.uuid IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM symbols y WHERE y.uuid = s.uuid AND y.arch = s.arch)
                    """, [.integer(id)])
                // Crash reports of this build are linked to it, and symbolicated with what it archived.
                try CrashStore.requeue(forRelease: id, now: now, db: db)
                try CrashStore.requeue(forSymbols: added, now: now, db: db)
                try WebhookOutbox.release(.releasePublished, id: id, db: db, now: now)
                return (id, added)
            }
        } catch let repeated as RepeatedPackage {
            throw ArchiveError.alreadyReleased(try release(id: repeated.releaseID))
        }
        let (id, added) = published
        return ReleaseResult(release: try release(id: id), validation: validation, addedSymbols: added,
                             earlierRelease: request.again ? earlier : nil)
    }

    /// Refuses a package that an earlier release already published, unless `again`.
    func refuseRepeat(of digest: HashDigest, again: Bool) throws {
        guard !again, let earlier = try releases(withPackage: digest).first else { return }
        throw ArchiveError.alreadyReleased(earlier)
    }

    /// Releases whose package has `digest`, oldest first.
    public func releases(withPackage digest: HashDigest) throws -> [Release] {
        try releases().filter { $0.packageBlob == digest }.sorted { $0.id < $1.id }
    }

    /// The columns of `SELECT … FROM releases`, shared with `release(from:groups:)`.
    static let releaseColumns = SQLColumns([
        "id", "bundle_id", "display_name", "version", "build", "minimum_os", "source_kind", "source_name", "package_blob", "icon_blob",
        "profile_uuid", "profile_name", "profile_type", "profile_expires_at", "notes", "created_at", "revoked_at",
        "(SELECT resigned_from FROM release_resigns WHERE release_resigns.release_id = releases.id) AS resigned_from",
        "(SELECT min(s.release_id) FROM release_resigns s JOIN releases n ON n.id = s.release_id "
            + "WHERE s.resigned_from = releases.id AND s.supersedes = 1 AND n.revoked_at IS NULL) AS superseded_by",
    ])

    static func release(from row: SQLiteRow, groups: [String]) throws(SQLRowError) -> Release {
        let row = releaseColumns.reader(row)
        func digest(_ column: String) throws(SQLRowError) -> HashDigest? {
            guard let text = try row.optionalText(column) else { return nil }
            guard let digest = HashDigest(hex: text) else { throw SQLRowError(column: column, problem: .unreadable(text, expected: "a SHA-256 digest")) }
            return digest
        }
        guard let package = try digest("package_blob") else { throw SQLRowError(column: "package_blob", problem: .missing) }
        return Release(id: try row.int("id"), bundleID: try row.text("bundle_id"), displayName: try row.optionalText("display_name"),
                       version: try row.optionalText("version"), build: try row.optionalText("build"), minimumOS: try row.optionalText("minimum_os"),
                       sourceKind: try row.required("source_kind", as: ArtifactKind.self), sourceName: try row.text("source_name"),
                       packageBlob: package, iconBlob: try digest("icon_blob"), profileUUID: try row.optionalText("profile_uuid"),
                       profileName: try row.optionalText("profile_name"), profileType: try row.optional("profile_type", as: ProfileType.self),
                       profileExpiresAt: try row.optionalDate("profile_expires_at"), notes: try row.optionalText("notes"), groups: groups,
                       createdAt: try row.date("created_at"), revokedAt: try row.optionalDate("revoked_at"), resignedFrom: try row.optionalInt("resigned_from"),
                       supersededBy: try row.optionalInt("superseded_by"))
    }

    /// The columns of `SELECT … FROM release_groups`.
    static let releaseGroupColumns = SQLColumns(["release_id", "name"])

    /// Every release's groups by release id, names in order, read inside the caller's transaction.
    static func releaseGroups(_ db: SQLiteConnection) throws -> [Int64: [String]] {
        var groups: [Int64: [String]] = [:]
        for found in try db.query("SELECT \(releaseGroupColumns.list) FROM release_groups ORDER BY name") {
            let row = releaseGroupColumns.reader(found)
            groups[try row.int("release_id"), default: []].append(try row.text("name"))
        }
        return groups
    }

    /// Every release, newest first; revoked ones only when asked.
    public func releases(includeRevoked: Bool = true) throws -> [Release] {
        try home.store.read { db in
            let groups = try Self.releaseGroups(db)
            let filter = includeRevoked ? "" : "WHERE revoked_at IS NULL"
            return try db.query("SELECT \(Self.releaseColumns.list) FROM releases \(filter) ORDER BY id DESC").map { row throws(SQLRowError) in
                try Self.release(from: row, groups: groups[try Self.releaseColumns.reader(row).int("id")] ?? [])
            }
        }
    }

    /// One release.
    public func release(id: Int64) throws -> Release {
        guard let found = try releases().first(where: { $0.id == id }) else { throw ArchiveError.unknownRelease(String(id)) }
        return found
    }

    /// The executable slices of a release and whether each has symbols.
    public func slices(ofRelease id: Int64) throws -> [ReleaseSlice] {
        try home.store.read { db in
            try db.query("SELECT \(ReleaseSlice.columns.list) FROM release_slices s WHERE s.release_id = ? ORDER BY s.rowid", [.integer(id)])
                .map { row throws(SQLRowError) in try ReleaseSlice(row: ReleaseSlice.columns.reader(row)) }
        }
    }

    /// Hides a release from testers; its package and symbols stay archived.
    public func revoke(id: Int64, now: Date) throws -> Release {
        try home.store.write { db in
            guard let row = try db.queryOne("SELECT revoked_at FROM releases WHERE id = ?", [.integer(id)]) else {
                throw ArchiveError.unknownRelease(String(id))
            }
            if let revoked = row.string(0) { throw ArchiveError.alreadyRevoked(id: id, on: String(revoked.prefix(10))) }
            try db.query("UPDATE releases SET revoked_at = ? WHERE id = ?", [.text(Timestamp.string(now)), .integer(id)])
            try WebhookOutbox.release(.releaseRevoked, id: id, db: db, now: now)
        }
        return try release(id: id)
    }
}

extension ReleaseSlice {
    /// The columns of `SELECT … FROM release_slices s`, shared with `init(row:)`.
    static let columns = SQLColumns(["s.path", "s.kind", "s.bundle_id", "s.arch", "s.uuid", "s.minimum_os",
                                     "EXISTS (SELECT 1 FROM symbols y WHERE y.uuid = s.uuid AND y.arch = s.arch) AS has_symbols"])

    /// Decodes a row of a SELECT whose columns include `columns`.
    init(row: SQLRowReader) throws(SQLRowError) {
        self.init(path: try row.text("s.path"), kind: try row.text("s.kind"), bundleID: try row.optionalText("s.bundle_id"),
                  architecture: try row.text("s.arch"), uuid: try row.optionalText("s.uuid"), minimumOS: try row.optionalText("s.minimum_os"),
                  hasSymbols: try row.int("has_symbols") != 0)
    }
}
