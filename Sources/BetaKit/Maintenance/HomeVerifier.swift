import AppleFormats
import PosixIO

/// Checks that a home is whole: the database is sound, every blob it references is on disk with
/// the right SHA-256, every released executable has its symbols or was recorded as released
/// without them, and no file in blobs/ is unaccounted for.
public enum HomeVerifier {
    /// What `verify` found.
    public struct Report: Sendable, Equatable {
        /// Every problem, one sentence each naming the value and the fix; empty when the home is whole.
        public var problems: [String] = []
        /// Blobs whose content was hashed and matched.
        public var blobsChecked = 0
        /// Bytes hashed.
        public var bytesChecked: UInt64 = 0
        /// Releases whose executables were checked for symbols.
        public var releasesChecked = 0
        /// Executable slices released without symbols, as recorded when they were released.
        public var recordedWithoutSymbols = 0
    }

    /// Verifies `home`; `progress` is told the bytes hashed so far and the total.
    public static func verify(_ home: Home, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> Report {
        var report = Report()
        for message in try home.store.integrityProblems() {
            report.problems.append("the database fails SQLite's integrity check: \(message); restore the home from a backup")
        }
        let snapshot = try home.store.read { db in
            let blobs = try db.query("SELECT sha256, size, pending_pid FROM blobs ORDER BY sha256").map {
                (hex: $0.string(0) ?? "", size: UInt64(max(0, $0.int(1) ?? 0)), pendingPID: $0.int(2))
            }
            let unrecorded = try db.query("""
                SELECT s.release_id, s.path, s.arch, s.uuid FROM release_slices s
                WHERE s.uuid IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM symbols y WHERE y.uuid = s.uuid AND y.arch = s.arch)
                  AND NOT EXISTS (SELECT 1 FROM release_missing_symbols m
                                  WHERE m.release_id = s.release_id AND m.path = s.path AND m.arch = s.arch)
                ORDER BY s.release_id, s.path, s.arch
                """).map { "release \($0.int(0) ?? 0): \($0.string(1) ?? "?") (\($0.string(2) ?? "?"), UUID \($0.string(3) ?? "?"))" }
            let releases = try db.queryOne("SELECT count(*) FROM releases")?.int(0) ?? 0
            let recorded = try db.queryOne("SELECT count(*) FROM release_missing_symbols")?.int(0) ?? 0
            return (blobs: blobs, unrecorded: unrecorded, releases: Int(releases), recorded: Int(recorded))
        }
        report.releasesChecked = snapshot.releases
        report.recordedWithoutSymbols = snapshot.recorded
        for slice in snapshot.unrecorded {
            report.problems.append("\(slice) has no symbols, and none were recorded missing when it was released; "
                + "archive its dSYM with `betactl add-symbols`")
        }
        let store = BlobStore(root: home.blobsPath)
        let total = snapshot.blobs.reduce(UInt64(0)) { $0 + ($1.pendingPID == nil ? $1.size : 0) }
        var known = Set<String>()
        for blob in snapshot.blobs {
            known.insert(blob.hex)
            if let pid = blob.pendingPID {
                if !Archive.isAlive(Int32(clamping: pid)) {
                    report.problems.append("blob \(blob.hex) was left half-published by a run that was killed (pid \(pid)); "
                        + "the next release, add-symbols or import-profile removes it")
                }
                continue
            }
            guard let digest = HashDigest(hex: blob.hex) else {
                report.problems.append("the database lists a blob \"\(blob.hex)\" that is not a SHA-256; restore the home from a backup")
                continue
            }
            let path = store.path(for: digest)
            guard FileKind(path: path) == .regularFile else {
                report.problems.append("blob \(blob.hex) is referenced by the database but missing from \(home.blobsPath); "
                    + "restore it from a backup")
                continue
            }
            let base = report.bytesChecked
            let actual = try FileDigest.sha256(path: path) { done in progress?(base + done, total) }
            let size = ((try? FileSystem.status(path)) ?? nil).map { UInt64(max(0, $0.size)) } ?? 0
            report.bytesChecked += size
            if actual != digest {
                report.problems.append("blob \(blob.hex) is damaged: its content has SHA-256 \(actual.hex); restore it from a backup")
            } else if size != blob.size {
                report.problems.append("blob \(blob.hex) has \(size) bytes where the database recorded \(blob.size); restore the home from a backup")
            } else {
                report.blobsChecked += 1
            }
        }
        report.problems += orphans(in: home.blobsPath, known: known)
        return report
    }

    /// Files and folders in blobs/ that the database does not list.
    static func orphans(in root: String, known: Set<String>) -> [String] {
        var problems: [String] = []
        guard let folders = try? directoryEntries(root) else {
            return ["\(root) cannot be read; check that it exists and that betactl's user owns it"]
        }
        for folder in folders.sorted() {
            let path = root + "/" + folder
            guard folder.utf8.count == 2, isLowercaseHex(folder), FileKind(path: path) == .directory,
                  let names = try? directoryEntries(path) else {
                problems.append("\(path) is not part of the archive; move it out of blobs/")
                continue
            }
            for name in names.sorted() where !known.contains(name) {
                let isBlobName = name.utf8.count == 64 && name.hasPrefix(folder) && isLowercaseHex(name)
                problems.append(isBlobName
                    ? "\(path)/\(name) is an orphan: no row in the database refers to it; delete it, or restore the database from a backup if it should be there"
                    : "\(path)/\(name) is not part of the archive; move it out of blobs/")
            }
        }
        return problems
    }

    /// Blob names are SHA-256 digests in lowercase hex (`HashDigest.hex`).
    static func isLowercaseHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f")) }
    }
}
