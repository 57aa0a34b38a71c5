#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// The content-addressed archive of profiles, builds and symbols in a home.
///
/// Publishing is two transactions around the file copies: first the blobs are
/// registered as pending under this process's id, then the files are moved into
/// place, then one transaction records the release and clears the pending mark.
/// A process killed in between leaves pending rows; the next run deletes them
/// and their files, so there is either a complete release or none.
public struct Archive: Sendable {
    /// The home this archive lives in.
    public let home: Home
    let blobs: BlobStore

    /// Opens the archive of `home`.
    public init(home: Home) {
        self.home = home
        self.blobs = BlobStore(root: home.blobsPath)
    }

    /// The path of a stored blob.
    public func blobPath(_ digest: HashDigest) -> String { blobs.path(for: digest) }

    /// Deletes what killed runs left: pending blobs of dead processes and their staging folders.
    @discardableResult
    public func cleanOrphans() throws -> Int {
        let orphans: [String] = try home.store.write { db in
            var dead: [String] = []
            for row in try db.query("SELECT sha256, pending_pid FROM blobs WHERE pending_pid IS NOT NULL") {
                guard let hex = row.string(0), let pid = row.int(1), !Self.isAlive(Int32(truncatingIfNeeded: pid)) else { continue }
                dead.append(hex)
            }
            for hex in dead { try db.query("DELETE FROM blobs WHERE sha256 = ?", [.text(hex)]) }
            return dead
        }
        for hex in orphans { if let digest = HashDigest(hex: hex) { blobs.remove(digest) } }
        // Staging folders are named after their process.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: home.temporaryPath)) ?? []
        for entry in entries where entry.hasPrefix("stage-") {
            let pid = entry.dropFirst(6).split(separator: "-").first.flatMap { Int32($0) } ?? 0
            if pid > 0 && !Self.isAlive(pid) { try? FileManager.default.removeItem(atPath: "\(home.temporaryPath)/\(entry)") }
        }
        return orphans.count
    }

    static func isAlive(_ pid: Int32) -> Bool {
        CurrentProcess.exists(pid)
    }

    /// A new staging folder for this process under the home's tmp/.
    public func makeStagingDirectory() throws -> String {
        let path = "\(home.temporaryPath)/stage-\(CurrentProcess.id)-\(UInt32.random(in: 0 ... UInt32.max))"
        let created: Bool
        do { created = try FileSystem.makeDirectory(path, permissions: 0o700) } catch { throw FileSystemError(error, operation: "create directory") }
        guard created else { throw FileSystemError(operation: "create directory", path: path, errno: Errno.fileExists) }
        return path
    }

    /// Registers blobs as pending for this process (first publish transaction).
    func markPending(_ entries: [(HashDigest, UInt64, String)], now: Date) throws {
        let stamp = Timestamp.string(now)
        try home.store.write { db in
            for (digest, size, kind) in entries {
                try db.query("INSERT INTO blobs (sha256, size, kind, created_at, pending_pid) VALUES (?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
                             [.text(digest.hex), .integer(Int64(size)), .text(kind), .text(stamp), .integer(Int64(CurrentProcess.id))])
            }
        }
    }

    /// Clears the pending mark inside the publishing transaction. The row is recreated if another
    /// process's clean-up removed it meanwhile, and the file must still be there.
    func commitBlobs(_ entries: [(HashDigest, UInt64, String)], now: Date, db: SQLiteConnection) throws {
        for (digest, size, kind) in entries {
            guard blobs.contains(digest) else { throw ArchiveError.missingBlob(digest.hex) }
            try db.query("INSERT INTO blobs (sha256, size, kind, created_at, pending_pid) VALUES (?, ?, ?, ?, NULL) ON CONFLICT (sha256) DO UPDATE SET pending_pid = NULL",
                         [.text(digest.hex), .integer(Int64(size)), .text(kind), .text(Timestamp.string(now))])
        }
    }
}
