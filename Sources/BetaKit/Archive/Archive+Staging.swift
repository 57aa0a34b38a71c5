#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// Files copied into a staging folder, hashed, waiting to be moved into blobs/.
struct StagedBlobs {
    var entries: [(digest: HashDigest, size: UInt64, kind: String, staged: String)] = []

    var registrations: [(HashDigest, UInt64, String)] { entries.map { ($0.digest, $0.size, $0.kind) } }

    /// Copies `file` into `staging` while hashing it.
    mutating func copy(_ file: String, kind: String, staging: String) throws -> HashDigest {
        let staged = "\(staging)/\(kind)-\(entries.count)"
        let digest = try FileDigest.sha256(path: file, copyTo: staged)
        let size = ((try? FileSystem.status(staged)) ?? nil).map { UInt64(max(0, $0.size)) } ?? 0
        entries.append((digest, size, kind, staged))
        return digest
    }

    /// Adds a file already staged (the package copied while ingesting).
    mutating func add(staged: String, digest: HashDigest, size: UInt64, kind: String) {
        entries.append((digest, size, kind, staged))
    }

    /// Writes bytes into `staging`.
    mutating func write(_ bytes: [UInt8], kind: String, staging: String) throws -> HashDigest {
        let staged = "\(staging)/\(kind)-\(entries.count)"
        let fd = try withFileSystemError("create") { () throws(SystemCallError) in
            try FileDescriptor.open(staged, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        }
        defer { try? fd.close() }
        let result: Result<Void, FileSystemError> = bytes.withUnsafeBytes { raw in
            Result { () throws(FileSystemError) in try FileDigest.writeAll(fd, raw, path: staged) }
        }
        try result.get()
        try withFileSystemError("sync") { () throws(SystemCallError) in try fd.sync() }
        let digest = SHA256.hash(bytes)
        entries.append((digest, UInt64(bytes.count), kind, staged))
        return digest
    }

    /// Registers as pending, then moves every staged file into blobs/.
    func publish(to archive: Archive, now: Date) throws {
        try archive.markPending(registrations, now: now)
        for entry in entries { try archive.blobs.adopt(staged: entry.staged, digest: entry.digest) }
    }
}

extension Archive {
    /// Stages the DWARF files of `artifacts` and returns the symbol rows to insert. A key found in
    /// several files comes from the first, or for a key in `replacements` from the file offered there.
    func stageSymbols(_ artifacts: [IngestedArtifact], into staged: inout StagedBlobs, staging: String,
                      replacements: [SymbolKey: SymbolReplacement] = [:])
        throws -> [(key: SymbolKey, digest: HashDigest, dsym: String, file: String)] {
        var rows: [(key: SymbolKey, digest: HashDigest, dsym: String, file: String)] = []
        var seenKeys = Set<SymbolKey>()
        for artifact in artifacts {
            for file in artifact.dwarfFiles {
                guard let location = artifact.dwarfLocations[file.path] else { continue }
                let keys = file.symbolKeys.filter { !seenKeys.contains($0) && replacements[$0].map { $0.offeredPath == location } != false }
                guard !keys.isEmpty else { continue }
                let digest = try staged.copy(location, kind: "dwarf", staging: staging)
                let dsym = file.bundlePath.split(separator: "/").last.map(String.init) ?? file.bundlePath
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                for key in keys {
                    seenKeys.insert(key)
                    rows.append((key, digest, dsym, name))
                }
            }
        }
        return rows
    }

    /// Inserts symbol rows; an existing (uuid, arch) keeps its first file unless `replacing` names
    /// it (the old row then moves to `replaced_symbols`). Returns the keys that were new, and
    /// those replaced.
    static func insertSymbols(_ rows: [(key: SymbolKey, digest: HashDigest, dsym: String, file: String)], now: Date, db: SQLiteConnection,
                              replacing: [SymbolKey: SymbolReplacement]) throws -> (added: [SymbolKey], replaced: [SymbolReplacement]) {
        var replaced: [SymbolReplacement] = []
        var rest: [(key: SymbolKey, digest: HashDigest, dsym: String, file: String)] = []
        for row in rows {
            if let replacement = replacing[row.key] {
                if try replaceSymbols(replacement, with: row, now: now, db: db) { replaced.append(replacement) }
            } else {
                rest.append(row)
            }
        }
        return (try insertSymbols(rest, now: now, db: db), replaced)
    }

    /// Inserts symbol rows; an existing (uuid, arch) keeps its first file. Returns the keys that were new.
    static func insertSymbols(_ rows: [(key: SymbolKey, digest: HashDigest, dsym: String, file: String)], now: Date, db: SQLiteConnection) throws -> [SymbolKey] {
        var added: [SymbolKey] = []
        for row in rows {
            let exists = try db.queryOne("SELECT 1 FROM symbols WHERE uuid = ? AND arch = ?",
                                         [.text(row.key.uuid.uuidString), .text(row.key.architecture.name)]) != nil
            guard !exists else { continue }
            try db.query("INSERT INTO symbols (uuid, arch, blob, dsym_name, file_name, added_at) VALUES (?, ?, ?, ?, ?, ?)",
                         [.text(row.key.uuid.uuidString), .text(row.key.architecture.name), .text(row.digest.hex),
                          .text(row.dsym), .text(row.file), .text(Timestamp.string(now))])
            added.append(row.key)
        }
        return added
    }
}
