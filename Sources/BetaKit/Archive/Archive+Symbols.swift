#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What `add-symbols` did.
public struct AddSymbolsResult: Sendable {
    /// Keys newly archived.
    public var added: [SymbolKey]
    /// Keys found in the inputs that were already archived (and not replaced).
    public var alreadyPresent: [SymbolKey]
    /// Archived files with damaged debug information that an intact copy given now replaced;
    /// the old files stay in the archive (`replacedSymbols()`).
    public var replaced: [SymbolReplacement]
    /// Releases that have an executable slice among the added or replaced keys.
    public var releaseIDs: [Int64]
}

extension Archive {
    /// Every (UUID, architecture) with archived symbols.
    public func archivedSymbolKeys() throws -> Set<SymbolKey> {
        try home.store.read { db in
            Set(try db.query("SELECT uuid, arch FROM symbols").compactMap { row -> SymbolKey? in
                guard let uuid = row.string(0).flatMap(UUID.init(uuidString:)), let arch = row.string(1).flatMap(MachOArchitecture.init(name:)) else { return nil }
                return SymbolKey(uuid: uuid, architecture: arch)
            })
        }
    }

    /// Archives the dSYMs found in `paths` (.dSYM folders or zips, or .xcarchives).
    ///
    /// A slice already archived keeps its file, unless that file's debug information is damaged
    /// and the one given is intact: then the given file replaces it, and the old one stays in the
    /// archive, listed by `replacedSymbols()`.
    public func addSymbols(paths: [String], now: Date, progress: IngestProgressHandler? = nil) throws -> AddSymbolsResult {
        try cleanOrphans()
        let staging = try makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let ingestor = ArtifactIngestor(workDirectory: staging, progress: progress)
        var artifacts: [IngestedArtifact] = []
        for path in paths {
            let artifact = try ingestor.ingest(path: path)
            guard !artifact.dwarfFiles.isEmpty else { throw ArchiveError.noSymbols(path) }
            artifacts.append(artifact)
        }
        let existing = try archivedSymbolKeys()
        let all = artifacts.reduce(into: Set<SymbolKey>()) { $0.formUnion($1.symbolKeys) }
        // Copies of archived slices are candidates to replace a damaged archived file.
        var offered: [(key: SymbolKey, path: String)] = []
        for artifact in artifacts {
            for file in artifact.dwarfFiles {
                guard let location = artifact.dwarfLocations[file.path] else { continue }
                offered += file.symbolKeys.filter(existing.contains).map { ($0, location) }
            }
        }
        let replacements = offered.isEmpty ? [:] : try symbolReplacements(for: offered, scratch: staging)
        // Only files with at least one new or replacing key are copied.
        let fresh = artifacts.map { artifact -> IngestedArtifact in
            var copy = artifact
            copy.dwarfFiles = artifact.dwarfFiles.filter { file in
                let location = artifact.dwarfLocations[file.path]
                return file.symbolKeys.contains { key in !existing.contains(key) || (location != nil && replacements[key]?.offeredPath == location) }
            }
            return copy
        }
        var staged = StagedBlobs()
        let rows = try stageSymbols(fresh, into: &staged, staging: staging, replacements: replacements)
        try staged.publish(to: self, now: now)
        let (added, replaced) = try home.store.write { db in
            try commitBlobs(staged.registrations, now: now, db: db)
            let inserted = try Self.insertSymbols(rows, now: now, db: db, replacing: replacements)
            // Crash reports waiting for these UUIDs are symbolicated and regrouped again.
            try CrashStore.requeue(forSymbols: inserted.added + inserted.replaced.map(\.key), now: now, db: db)
            return inserted
        }
        let changed = added + replaced.map(\.key)
        let releaseIDs: [Int64] = try home.store.read { db in
            var ids = Set<Int64>()
            for key in changed {
                for row in try db.query("SELECT release_id FROM release_slices WHERE uuid = ? AND arch = ?", [.text(key.uuid.uuidString), .text(key.architecture.name)]) {
                    if let id = row.int(0) { ids.insert(id) }
                }
            }
            return ids.sorted()
        }
        return AddSymbolsResult(added: added.sorted(), alreadyPresent: all.intersection(existing).subtracting(replaced.map(\.key)).sorted(),
                                replaced: replaced.sorted { $0.key < $1.key }, releaseIDs: releaseIDs)
    }

    /// Every archived symbol slice with the releases it serves.
    public func symbols() throws -> [SymbolEntry] {
        try home.store.read { db in
            try db.query("SELECT \(Self.symbolColumns.list) FROM symbols y ORDER BY y.added_at, y.dsym_name, y.uuid, y.arch").map { row throws(SQLRowError) in
                let row = Self.symbolColumns.reader(row)
                let ids = (try row.optionalText("release_ids") ?? "").split(separator: ",").compactMap { Int64($0) }.sorted()
                let text = try row.text("y.blob")
                guard let blob = HashDigest(hex: text) else { throw SQLRowError(column: "y.blob", problem: .unreadable(text, expected: "a SHA-256 digest")) }
                return SymbolEntry(uuid: try row.text("y.uuid"), architecture: try row.text("y.arch"), dsymName: try row.text("y.dsym_name"),
                                   fileName: try row.text("y.file_name"), path: blobs.path(for: blob), addedAt: try row.date("y.added_at"), releaseIDs: ids)
            }
        }
    }

    /// The columns `symbols()` reads, shared with its decoder.
    static let symbolColumns = SQLColumns([
        "y.uuid", "y.arch", "y.dsym_name", "y.file_name", "y.blob", "y.added_at",
        "(SELECT group_concat(DISTINCT s.release_id) FROM release_slices s WHERE s.uuid = y.uuid AND s.arch = y.arch) AS release_ids",
    ])

    /// The columns `slicesWithoutSymbols()` reads: the release, then a slice's own.
    static let sliceColumns = SQLColumns(["s.release_id"] + ReleaseSlice.columns.entries)

    /// Executable slices of releases (revoked ones too) whose symbols are not archived, with their release.
    public func slicesWithoutSymbols() throws -> [(releaseID: Int64, slice: ReleaseSlice)] {
        try home.store.read { db in
            try db.query("""
                SELECT \(Self.sliceColumns.list) FROM release_slices s
                WHERE NOT EXISTS (SELECT 1 FROM symbols y WHERE y.uuid = s.uuid AND y.arch = s.arch)
                ORDER BY s.release_id, s.path, s.arch
                """).map { row throws(SQLRowError) in
                let row = Self.sliceColumns.reader(row)
                return (try row.int("s.release_id"), try ReleaseSlice(row: row))
            }
        }
    }

    /// The DWARF file for an image UUID, for symbolication. `architecture` is a hint: when no slice
    /// of that architecture is archived the UUID alone decides. Returns the slice's real architecture.
    public func symbolLocation(uuid: UUID, architecture: MachOArchitecture? = nil) throws -> (path: String, architecture: MachOArchitecture)? {
        try home.store.read { db in
            var row: SQLiteRow?
            if let architecture {
                row = try db.queryOne("SELECT blob, arch FROM symbols WHERE uuid = ? AND arch = ?", [.text(uuid.uuidString), .text(architecture.name)])
            }
            if row == nil {
                row = try db.queryOne("SELECT blob, arch FROM symbols WHERE uuid = ? ORDER BY arch LIMIT 1", [.text(uuid.uuidString)])
            }
            guard let row, let digest = row.string(0).flatMap(HashDigest.init(hex:)),
                  let arch = row.string(1).flatMap(MachOArchitecture.init(name:)) else { return nil }
            return (blobs.path(for: digest), arch)
        }
    }
}
