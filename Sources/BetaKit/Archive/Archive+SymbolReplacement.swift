#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// An archived symbol file that `add-symbols` replaced with an intact copy of the same image.
public struct SymbolReplacement: Sendable, Equatable, CustomStringConvertible {
    /// The slice concerned.
    public var key: SymbolKey
    /// How many parts of the archived copy's debug information could not be read; nil when it
    /// could not be indexed at all.
    public var archivedProblems: Int?
    /// The archived blob that was judged damaged: the replacement goes ahead only while the key
    /// still holds it, so a file another process archived meanwhile is never replaced unjudged.
    var archivedDigest: HashDigest
    /// The intact file given, which takes the archived one's place.
    var offeredPath: String

    init(key: SymbolKey, archivedProblems: Int?, archivedDigest: HashDigest, offeredPath: String) {
        self.key = key
        self.archivedProblems = archivedProblems
        self.archivedDigest = archivedDigest
        self.offeredPath = offeredPath
    }

    /// Why the archived copy was replaced, and that it is not lost.
    public var reason: String {
        let damage = archivedProblems.map { "its debug information is damaged (\($0) part\($0 == 1 ? "" : "s") could not be read)" }
            ?? "it could not be indexed at all"
        return "the archived copy was replaced by an intact one: \(damage)"
    }

    /// "KEY: why; where the old copy is".
    public var description: String { "\(key): \(reason); the old file stays in the archive" }
}

extension Archive {
    /// The archived blob of one key and how many problems indexing it skips (nil: it cannot be indexed).
    private struct ArchivedVerdict {
        var digest: HashDigest
        var problems: Int?
    }

    /// The keys among `offered` (an archived key and a new DWARF file holding it) whose archived
    /// file has damaged debug information while the new file's is intact: those an `add-symbols`
    /// replaces, by key (the first intact file offered for a key wins).
    ///
    /// An archived file is judged by its index in the cache, which is built there (and kept, for
    /// `symbolicate` and the next `add-symbols`) when missing; only when the cache holds an index
    /// of another copy of the image is the archived file indexed into `scratch` instead. Offered
    /// files are indexed into `scratch`, and only for keys whose archived copy is damaged. Each
    /// archived key is judged once however many files offer it.
    func symbolReplacements(for offered: [(key: SymbolKey, path: String)], scratch: String) throws -> [SymbolKey: SymbolReplacement] {
        var result: [SymbolKey: SymbolReplacement] = [:]
        var verdicts: [SymbolKey: ArchivedVerdict] = [:]
        // An input given twice offers the same file twice.
        var damagedOffers: [SymbolKey: Set<String>] = [:]
        let cache = try? SymbolIndexCache(directory: symbolIndexDirectory)
        for (number, (key, path)) in offered.enumerated() where result[key] == nil {
            let verdict: ArchivedVerdict
            if let known = verdicts[key] {
                verdict = known
            } else {
                guard let judged = try archivedVerdict(for: key, cache: cache, scratch: scratch, name: "archived-\(number)") else { continue }
                verdicts[key] = judged
                verdict = judged
            }
            guard verdict.problems != 0, damagedOffers[key]?.contains(path) != true else { continue }
            let new = SymbolFile(path: path, uuid: key.uuid, architecture: key.architecture)
            guard Self.problems(indexing: new, scratch: scratch, name: "offered-\(number)") == 0 else {
                damagedOffers[key, default: []].insert(path)
                continue
            }
            result[key] = SymbolReplacement(key: key, archivedProblems: verdict.problems, archivedDigest: verdict.digest, offeredPath: path)
        }
        return result
    }

    /// Judges the file archived for `key`; nil when none is archived for that exact slice.
    private func archivedVerdict(for key: SymbolKey, cache: SymbolIndexCache?, scratch: String, name: String) throws -> ArchivedVerdict? {
        let digest = try home.store.read { db in
            try db.queryOne("SELECT blob FROM symbols WHERE uuid = ? AND arch = ?", [.text(key.uuid.uuidString), .text(key.architecture.name)])?
                .string(0).flatMap(HashDigest.init(hex:))
        }
        guard let digest else { return nil }
        let file = SymbolFile(path: blobs.path(for: digest), uuid: key.uuid, architecture: key.architecture)
        if let cache, let identity = SymbolSource(path: file.path) {
            if let cached = cache.cachedIndex(uuid: key.uuid, architecture: key.architecture) {
                if cached.source == identity { return ArchivedVerdict(digest: digest, problems: cached.problemCount) }
                // The cache holds an index of another copy, which says nothing about this one.
            } else {
                let built: SymbolIndex
                do { built = try cache.index(for: file) } catch { return ArchivedVerdict(digest: digest, problems: nil) }
                // Another process may have cached another copy in between.
                if built.source == identity { return ArchivedVerdict(digest: digest, problems: built.problemCount) }
            }
        }
        return ArchivedVerdict(digest: digest, problems: Self.problems(indexing: file, scratch: scratch, name: name))
    }

    /// How many problems indexing `file` skips, or nil when it cannot be indexed.
    static func problems(indexing file: SymbolFile, scratch: String, name: String) -> Int? {
        let destination = "\(scratch)/\(name).symidx"
        defer { _ = try? FileSystem.removeFile(destination) }
        return (try? SymbolIndexBuilder(source: file, destination: destination, progress: nil).build())?.warnings.count
    }

    /// Moves the archived row of `replacement.key` to `replaced_symbols` and points the key at the
    /// new file, inside the caller's transaction. Returns false when the row no longer holds the
    /// blob that was judged (another process replaced it first).
    static func replaceSymbols(_ replacement: SymbolReplacement, with row: (key: SymbolKey, digest: HashDigest, dsym: String, file: String),
                               now: Date, db: SQLiteConnection) throws -> Bool {
        let key: [SQLiteValue] = [.text(row.key.uuid.uuidString), .text(row.key.architecture.name)]
        guard let current = try db.queryOne("SELECT blob FROM symbols WHERE uuid = ? AND arch = ?", key)?.string(0),
              current == replacement.archivedDigest.hex else { return false }
        let stamp = Timestamp.string(now)
        try db.query("""
            INSERT INTO replaced_symbols (uuid, arch, blob, dsym_name, file_name, added_at, replaced_at, reason)
            SELECT uuid, arch, blob, dsym_name, file_name, added_at, ?, ? FROM symbols WHERE uuid = ? AND arch = ?
            """, [.text(stamp), .text(replacement.reason)] + key)
        try db.query("UPDATE symbols SET blob = ?, dsym_name = ?, file_name = ?, added_at = ? WHERE uuid = ? AND arch = ?",
                     [.text(row.digest.hex), .text(row.dsym), .text(row.file), .text(stamp)] + key)
        return true
    }

    /// The columns `replacedSymbols()` reads, shared with its decoder.
    static let replacedSymbolColumns = SQLColumns(["uuid", "arch", "blob", "replaced_at", "reason"])

    /// Symbol files replaced by better copies, oldest first: the blob of each is still archived.
    public func replacedSymbols() throws -> [(key: SymbolKey, path: String, replacedAt: Date, reason: String)] {
        try home.store.read { db in
            try db.query("SELECT \(Self.replacedSymbolColumns.list) FROM replaced_symbols ORDER BY replaced_at, rowid")
                .compactMap { found throws(SQLRowError) -> (key: SymbolKey, path: String, replacedAt: Date, reason: String)? in
                    let row = Self.replacedSymbolColumns.reader(found)
                    // An architecture stored by its numbers (`cpu<type>/<subtype>`, one betactl has no
                    // name for) does not read back as one: such a row is left out, as it always was.
                    guard let architecture = MachOArchitecture(name: try row.text("arch")) else { return nil }
                    let key = SymbolKey(uuid: try row.parsed("uuid", as: "a UUID", UUID.init(uuidString:)), architecture: architecture)
                    let digest = try row.parsed("blob", as: "a SHA-256 digest", HashDigest.init(hex:))
                    return (key: key, path: blobs.path(for: digest), replacedAt: try row.date("replaced_at"), reason: try row.text("reason"))
                }
        }
    }
}
