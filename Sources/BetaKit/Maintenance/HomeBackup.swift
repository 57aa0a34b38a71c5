#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// Consistent copies of a home: `backup` while it is in use, and `restore` from such a copy.
///
/// A copy is itself a home: the database copied with SQLite's online backup API (a snapshot,
/// however busy the home is), then the blobs that snapshot references, hard-linked when on the
/// same file system (blobs are never changed in place, so sharing them is safe) and otherwise
/// copied while their SHA-256 is checked. The cache is left out (it is rebuilt on demand).
/// Everything is built in a hidden folder beside the destination and renamed into place at the
/// end, so an interrupted copy never looks like a finished one.
public enum HomeBackup {
    /// What a copy did.
    public struct Summary: Sendable, Equatable {
        /// Blobs referenced by the copied database.
        public var blobs = 0
        /// Of those, how many were hard-linked rather than copied.
        public var linked = 0
        /// Bytes of the blobs copied (not linked).
        public var copiedBytes: UInt64 = 0
        /// Referenced blobs that could not be copied, one sentence each; the copy has them missing.
        public var problems: [String] = []
        /// Secret files copied (only when asked for).
        public var secrets = 0
        /// Where a home that a restore replaced was moved to.
        public var replacedHomeMovedTo: String?
    }

    /// Writes a consistent copy of `home` to `destination`, which must not exist or be an empty folder.
    /// The home's secrets folder (the App Store Connect key) is left out unless `includeSecrets`.
    public static func backup(_ home: Home, to destination: String, includeSecrets: Bool = false) throws -> Summary {
        let destination = Home.absolute(destination, environment: [:])
        let homePath = home.path.withoutTrailingSlashes
        if destination == homePath || destination.hasPrefix(homePath + "/") {
            throw MaintenanceError.destinationInsideHome(path: destination, home: homePath)
        }
        guard isMissingOrEmptyDirectory(destination) else { throw MaintenanceError.destinationNotEmpty(path: destination) }
        try requireParent(of: destination)
        let staging = stagingPath(for: destination, purpose: "backup")
        var summary = try copy(home, into: staging, secrets: includeSecrets)
        summary.replacedHomeMovedTo = nil
        try moveIntoPlace(staging, destination)
        return summary
    }

    /// Replaces (or creates) the home at `target` with a copy of the backup at `source`, which
    /// must pass `HomeVerifier` first. An existing home is replaced only with `force`, and is then
    /// kept beside the target under a dated name, never deleted.
    public static func restore(from source: String, to target: String, force: Bool, now: Date) throws -> Summary {
        let source = Home.absolute(source, environment: [:])
        let target = Home.absolute(target, environment: [:])
        do {
            try Home.checkInitialised(at: source)
        } catch {
            throw MaintenanceError.notABackup(path: source)
        }
        let backup = try Home.open(at: source)
        let report = try HomeVerifier.verify(backup)
        guard report.problems.isEmpty else { throw MaintenanceError.damagedBackup(path: source, problems: report.problems.count) }
        var replaced: String?
        if !isMissingOrEmptyDirectory(target) {
            guard FileKind(path: target + "/" + Home.databaseName) == .regularFile else { throw MaintenanceError.notAHome(path: target) }
            guard force else { throw MaintenanceError.liveHome(path: target) }
            replaced = target + ".replaced-" + Timestamp.string(now).filter { $0.isNumber }
        }
        try requireParent(of: target)
        let staging = stagingPath(for: target, purpose: "restore")
        var summary = try copy(backup, into: staging, secrets: true)
        if let replaced {
            do { try FileSystem.rename(target, to: replaced) } catch {
                let code = error.errno
                try? FileManager.default.removeItem(atPath: staging)
                throw FileSystemError(operation: "move the current home aside to", path: replaced, errno: code)
            }
            summary.replacedHomeMovedTo = replaced
        }
        try moveIntoPlace(staging, target)
        return summary
    }

    // MARK: Copying

    /// Copies the database and the blobs it references into a new folder at `staging`.
    static func copy(_ home: Home, into staging: String, secrets: Bool) throws -> Summary {
        for folder in [staging, staging + "/blobs", staging + "/cache", staging + "/tmp"] {
            if let code = makeDirectory(folder) {
                try? FileManager.default.removeItem(atPath: staging)
                throw FileSystemError(operation: "create directory", path: folder, errno: code)
            }
        }
        do {
            let databasePath = staging + "/" + Home.databaseName
            try home.store.backup(to: databasePath)
            let copy = try Store(path: databasePath, create: false)
            // Blobs a publish had not committed when the snapshot was taken belong to no release;
            // they stay behind, and the copy has no pending rows a restored home could misread.
            let digests: [String] = try copy.write { db in
                try db.query("DELETE FROM blobs WHERE pending_pid IS NOT NULL")
                return try db.query("SELECT sha256 FROM blobs ORDER BY sha256").compactMap { $0.string(0) }
            }
            var summary = Summary()
            var folders = Set<String>()
            for hex in digests {
                guard let digest = HashDigest(hex: hex) else {
                    summary.problems.append("the database names a blob \"\(hex)\" that is not a SHA-256; it was not copied")
                    continue
                }
                let from = BlobStore(root: home.blobsPath).path(for: digest)
                let to = BlobStore(root: staging + "/blobs").path(for: digest)
                let folder = String(to.dropLast(hex.count + 1))
                if folders.insert(folder).inserted, let code = makeDirectory(folder) {
                    throw FileSystemError(operation: "create directory", path: folder, errno: code)
                }
                summary.blobs += 1
                let linkError: Int32
                do {
                    try FileSystem.makeHardLink(to, to: from)
                    summary.linked += 1
                    continue
                } catch { linkError = error.errno }
                guard linkError != Errno.noSuchFile else {
                    summary.problems.append("blob \(hex) is referenced by the database but missing from \(home.blobsPath)")
                    continue
                }
                let copied = try FileDigest.sha256(path: from, copyTo: to)
                if let info = (try? FileSystem.status(to)) ?? nil { summary.copiedBytes += UInt64(max(0, info.size)) }
                if copied != digest {
                    _ = try? FileSystem.removeFile(to)
                    summary.problems.append("blob \(hex) in \(home.blobsPath) is damaged (its content has SHA-256 \(copied.hex)); it was not copied")
                }
            }
            if secrets { summary.secrets = try copySecrets(of: home, into: staging) }
            for folder in folders.sorted() + [staging + "/blobs", staging] { syncDirectory(folder) }
            return summary
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    // MARK: Paths

    static func isMissingOrEmptyDirectory(_ path: String) -> Bool {
        switch FileKind(path: path) {
        case .missing: return true
        case .directory: return ((try? directoryEntries(path)) ?? ["?"]).isEmpty
        default: return false
        }
    }

    /// The copy is built beside `destination`, so its folder must exist; said about `destination`
    /// itself, not the hidden staging name.
    static func requireParent(of destination: String) throws(FileSystemError) {
        let parent = destination.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        guard FileKind(path: parent.isEmpty ? "/" : parent) == .directory else {
            throw FileSystemError(operation: "create directory", path: destination, errno: Errno.noSuchFile)
        }
    }

    /// A hidden folder beside `destination`, on the same file system so the final rename works.
    static func stagingPath(for destination: String, purpose: String) -> String {
        let parent = destination.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = destination.split(separator: "/").last.map(String.init) ?? "home"
        return (parent.isEmpty ? "" : parent) + "/.\(name).\(purpose)-\(CurrentProcess.id)-\(UInt32.random(in: 0 ... UInt32.max))"
    }

    /// Renames the finished copy to `destination` (replacing an empty folder there) and syncs the parent.
    static func moveIntoPlace(_ staging: String, _ destination: String) throws {
        if FileKind(path: destination) == .directory { _ = try? FileSystem.removeDirectory(destination) }
        do { try FileSystem.rename(staging, to: destination) } catch {
            let code = error.errno
            try? FileManager.default.removeItem(atPath: staging)
            throw FileSystemError(operation: "move the finished copy to", path: destination, errno: code)
        }
        let parent = destination.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        syncDirectory(parent.isEmpty ? "/" : parent)
    }

    static func syncDirectory(_ path: String) {
        guard let fd = try? FileDescriptor.open(path, .readOnly) else { return }
        try? fd.sync()
        try? fd.close()
    }

    /// Creates folder `path` (mode 0700); the `errno` when that fails, nil when it was created.
    static func makeDirectory(_ path: String) -> Int32? {
        do {
            return try FileSystem.makeDirectory(path, permissions: HomePermissions.directoryMode) ? nil : Errno.fileExists
        } catch { return error.errno }
    }
}
