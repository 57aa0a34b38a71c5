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

/// An archived symbol file that `add-symbols` replaced with an intact copy of the same image.
public struct SymbolReplacement: Sendable, Equatable, CustomStringConvertible {
    /// The slice concerned.
    public var key: SymbolKey
    /// How many parts of the archived copy's debug information could not be read; nil when it
    /// could not be indexed at all.
    public var archivedProblems: Int?
    /// The intact file given, which takes the archived one's place.
    var offeredPath: String

    /// Creates a record.
    public init(key: SymbolKey, archivedProblems: Int?) {
        self.init(key: key, archivedProblems: archivedProblems, offeredPath: "")
    }

    init(key: SymbolKey, archivedProblems: Int?, offeredPath: String) {
        self.key = key
        self.archivedProblems = archivedProblems
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
    /// The keys among `offered` (an archived key and a new DWARF file holding it) whose archived
    /// file has damaged debug information while the new file's is intact: those an `add-symbols`
    /// replaces. Each file is checked by indexing it into `scratch`, except that an archived file
    /// the cache indexed as it is now is judged by that index.
    func symbolReplacements(for offered: [(key: SymbolKey, path: String)], scratch: String) throws -> [SymbolReplacement] {
        var result: [SymbolReplacement] = []
        var judged = Set<SymbolKey>()
        let cache = try? SymbolIndexCache(directory: symbolIndexDirectory)
        for (key, path) in offered where !judged.contains(key) {
            guard let archived = try symbolLocation(uuid: key.uuid, architecture: key.architecture), archived.architecture == key.architecture else {
                continue
            }
            let old = SymbolFile(path: archived.path, uuid: key.uuid, architecture: key.architecture)
            var oldProblems: Int?
            if let cache, let index = try? SymbolIndex(path: cache.indexPath(uuid: key.uuid, architecture: key.architecture)),
               index.source != nil, index.source == SymbolSource(path: old.path) {
                oldProblems = index.problemCount
            } else {
                oldProblems = Self.problems(indexing: old, scratch: scratch, name: "archived-\(result.count)-\(judged.count)")
            }
            if oldProblems == 0 { continue }
            let new = SymbolFile(path: path, uuid: key.uuid, architecture: key.architecture)
            guard Self.problems(indexing: new, scratch: scratch, name: "offered-\(result.count)-\(judged.count)") == 0 else { continue }
            judged.insert(key)
            result.append(SymbolReplacement(key: key, archivedProblems: oldProblems, offeredPath: path))
        }
        return result
    }

    /// How many problems indexing `file` skips, or nil when it cannot be indexed.
    static func problems(indexing file: SymbolFile, scratch: String, name: String) -> Int? {
        let destination = "\(scratch)/\(name).symidx"
        defer { unlink(destination) }
        return (try? SymbolIndexBuilder(source: file, destination: destination, progress: nil).build())?.warnings.count
    }

    /// Moves the archived row of `replacement.key` to `replaced_symbols` and points the key at the
    /// new file, inside the caller's transaction. Returns false when the row changed since it was
    /// judged (another process replaced it first).
    static func replaceSymbols(_ replacement: SymbolReplacement, with row: (key: SymbolKey, digest: HashDigest, dsym: String, file: String),
                               now: Date, db: SQLiteConnection) throws -> Bool {
        let key: [SQLiteValue] = [.text(row.key.uuid.uuidString), .text(row.key.architecture.name)]
        guard let current = try db.queryOne("SELECT blob FROM symbols WHERE uuid = ? AND arch = ?", key)?.string(0),
              current != row.digest.hex else { return false }
        let stamp = Timestamp.string(now)
        try db.query("""
            INSERT INTO replaced_symbols (uuid, arch, blob, dsym_name, file_name, added_at, replaced_at, reason)
            SELECT uuid, arch, blob, dsym_name, file_name, added_at, ?, ? FROM symbols WHERE uuid = ? AND arch = ?
            """, [.text(stamp), .text(replacement.reason)] + key)
        try db.query("UPDATE symbols SET blob = ?, dsym_name = ?, file_name = ?, added_at = ? WHERE uuid = ? AND arch = ?",
                     [.text(row.digest.hex), .text(row.dsym), .text(row.file), .text(stamp)] + key)
        return true
    }

    /// Symbol files replaced by better copies, oldest first: the blob of each is still archived.
    public func replacedSymbols() throws -> [(key: SymbolKey, path: String, replacedAt: Date, reason: String)] {
        try home.store.read { db in
            try db.query("SELECT uuid, arch, blob, replaced_at, reason FROM replaced_symbols ORDER BY replaced_at, rowid").compactMap { row in
                guard let uuid = row.string(0).flatMap(UUID.init(uuidString:)), let arch = row.string(1).flatMap(MachOArchitecture.init(name:)),
                      let digest = row.string(2).flatMap(HashDigest.init(hex:)) else { return nil }
                return (SymbolKey(uuid: uuid, architecture: arch), blobs.path(for: digest),
                        row.string(3).flatMap(Timestamp.date) ?? .distantPast, row.string(4) ?? "")
            }
        }
    }
}
