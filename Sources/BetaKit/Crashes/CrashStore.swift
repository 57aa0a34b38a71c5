#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// The home's crash reports: raw reports content-addressed in `blobs/`, one row per distinct
/// report, one row per upload, a processing queue and groups by crash signature.
///
/// `store(_:now:)` is the durable step: when it returns, every report's bytes are fsync'd in the
/// blob store and its rows are committed (SQLite in WAL mode with `synchronous = FULL`). It takes
/// a batch, so a server can give one pair of transactions and one round of fsyncs to many
/// concurrent uploads. Processing (`CrashProcessor`) happens later, from the queue.
public struct CrashStore: Sendable {
    /// The home the reports live in.
    public let home: Home
    let archive: Archive

    /// The default limit on one report's size: 10 MB.
    public static let defaultMaxReportBytes: Int64 = 10 << 20

    /// Opens the crash store of `home`.
    public init(home: Home) {
        self.home = home
        archive = Archive(home: home)
    }

    /// The path of a report's raw bytes.
    public func rawPath(sha256: String) -> String? {
        HashDigest(hex: sha256).map { archive.blobPath($0) }
    }

    /// The raw bytes of report `id`, exactly as received.
    public func rawBytes(of id: Int64) throws -> [UInt8] {
        let record = try report(id: id)
        guard let path = rawPath(sha256: record.sha256) else { throw CrashError.unknownReport(String(id)) }
        return try CrashStore.readFile(path, limit: Int(max(record.size, 0)) + 1)
    }

    /// Stores a batch of reports durably and queues the new ones for processing. A report already
    /// stored (the same bytes, or the same identity: `CrashReportIdentity`) is not stored again:
    /// the upload is added to it and its receipt says `duplicate`. Either the whole batch is
    /// recorded or none of it is.
    public func store(_ submissions: [CrashSubmission], now: Date, maxReportBytes: Int64 = CrashStore.defaultMaxReportBytes) throws -> [CrashReceipt] {
        guard !submissions.isEmpty else { return [] }
        for submission in submissions {
            let name = submission.fileName ?? "the report"
            guard !submission.bytes.isEmpty else { throw CrashError.empty(name: name) }
            guard Int64(submission.bytes.count) <= maxReportBytes else {
                throw CrashError.tooLarge(size: Int64(submission.bytes.count), limit: maxReportBytes)
            }
        }
        let digests = submissions.map { SHA256.hash($0.bytes) }
        let identities = submissions.map { CrashReportIdentity.of($0.bytes) }
        // A report whose identity is already stored (or comes earlier in this batch) keeps no
        // bytes of its own: it is another upload of that report.
        let known = try knownIdentities(Set(identities.compactMap { $0 }))
        var registrations: [(HashDigest, UInt64, String)] = []
        var seen = Set<String>()
        var claimed = known
        for (index, submission) in submissions.enumerated() {
            if let identity = identities[index], !claimed.insert(identity).inserted { continue }
            if seen.insert(digests[index].hex).inserted {
                registrations.append((digests[index], UInt64(submission.bytes.count), "crash"))
            }
        }
        // Registered as pending first: a process killed while copying leaves rows that the next
        // clean-up recognises (dead pid) and removes with their files.
        try archive.markPending(registrations, now: now)
        let staging = try archive.makeStagingDirectory()
        defer { _ = try? FileSystem.removeDirectory(staging) }
        for (digest, _, _) in registrations {
            guard let index = digests.firstIndex(of: digest) else { continue }
            try archive.blobs.store(submissions[index].bytes, digest: digest, staging: staging)
        }
        let stamp = Timestamp.string(now)
        return try home.store.write { db in
            try archive.commitBlobs(registrations, now: now, db: db)
            var registered = Set(registrations.map(\.0.hex))
            var receipts: [CrashReceipt] = []
            for (index, submission) in submissions.enumerated() {
                var digest = digests[index].hex
                var duplicate = false
                let id: Int64
                var status = CrashStatus.queued
                var existing = try db.queryOne("SELECT \(Self.existingColumns.list) FROM crash_reports WHERE blob = ?", [.text(digest)])
                if existing == nil, let identity = identities[index] {
                    existing = try db.queryOne(Self.sameIdentitySelect, [.text(identity)])
                }
                if let found = existing {
                    let row = Self.existingColumns.reader(found)
                    duplicate = true
                    id = try row.int("id")
                    status = try row.required("status", as: CrashStatus.self)
                    digest = try row.text("blob")
                    try db.query("UPDATE crash_reports SET last_received_at = ?, identity = coalesce(identity, ?) WHERE id = ?",
                                 [.text(stamp), .optional(identities[index]), .integer(id)])
                    // A later upload may name a tester the first did not: link it again.
                    if submission.testerID != nil || submission.userID != nil || submission.contact != nil {
                        try Self.enqueue([id], reason: "upload", now: now, db: db)
                    }
                } else {
                    if !registered.contains(digest) {
                        // Its identity's report was found by its bytes and had another identity:
                        // rare enough to write its bytes here, inside the transaction.
                        let entry = (digests[index], UInt64(submission.bytes.count), "crash")
                        try archive.blobs.store(submission.bytes, digest: digests[index], staging: staging)
                        try archive.commitBlobs([entry], now: now, db: db)
                        registered.insert(digest)
                    }
                    try db.query("""
                        INSERT INTO crash_reports (blob, size, file_name, received_at, last_received_at, status, tester_id, identity)
                        VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)
                        """, [.text(digest), .integer(Int64(submission.bytes.count)), .optional(submission.fileName.map(Self.shortened)),
                              .text(stamp), .text(stamp), .optional(submission.testerID), .optional(identities[index])])
                    guard let new = try db.queryOne("SELECT last_insert_rowid()")?.int(0) else { throw CrashError.unknownReport("new") }
                    id = new
                    try Self.enqueue([id], reason: "new", now: now, db: db)
                }
                try db.query("""
                    INSERT INTO crash_uploads (report_id, received_at, source, key_id, tester_id, user_id, contact, description, file_name)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(id), .text(stamp), .text(submission.source.rawValue), .optional(submission.keyID), .optional(submission.testerID),
                          .optional(submission.userID.map(Self.shortened)), .optional(submission.contact.map(Self.shortened)),
                          .optional(submission.description.map { String($0.prefix(Self.maxDescription)) }),
                          .optional(submission.fileName.map(Self.shortened))])
                receipts.append(CrashReceipt(reportID: id, sha256: digest, duplicate: duplicate, status: status))
            }
            return receipts
        }
    }

    /// The stored report another arrival with the same identity belongs to. A copy found unreadable
    /// (cut short, or nested too deep) does not absorb a later one: that one may be readable, and is
    /// kept as a report of its own.
    static let sameIdentitySelect = "SELECT \(existingColumns.list) FROM crash_reports WHERE identity = ? AND status != 'unreadable' ORDER BY id LIMIT 1"

    /// The columns of a stored report that an arrival turns out to be a copy of.
    static let existingColumns = SQLColumns(["id", "status", "blob"])

    /// Which of `identities` a stored report already has.
    func knownIdentities(_ identities: Set<String>) throws -> Set<String> {
        guard !identities.isEmpty else { return [] }
        return try home.store.read { db in
            var known = Set<String>()
            for identity in identities where try db.queryOne(Self.sameIdentitySelect, [.text(identity)]) != nil {
                known.insert(identity)
            }
            return known
        }
    }

    /// Longest description kept; a longer one is cut.
    static let maxDescription = 16 * 1024

    /// Names and ids are cut to a line's worth.
    static func shortened(_ text: String) -> String { String(text.prefix(256)) }

    /// Reads a whole file of at most `limit` bytes.
    static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch { throw FileSystemError(error, operation: "open") }
        defer { try? fd.close() }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemCallError) -> Int in try fd.read(into: buffer) } }.get()
            } catch { throw FileSystemError(error, operation: "read") }
            if count == 0 { return result }
            result.append(contentsOf: chunk[..<count])
            guard result.count <= limit else { throw CrashError.tooLarge(size: Int64(result.count), limit: Int64(limit)) }
        }
    }
}

extension CrashStore {
    /// Whether `bytes` are a report the store keeps (a crash, low-memory or other diagnostic
    /// report), told from the bytes alone, with what they look like otherwise. Cheap enough to
    /// run on every upload, so a photo or a zip is refused at once instead of stored.
    public static func recognize(_ bytes: [UInt8]) -> (accepted: Bool, evidence: String) {
        CrashAnalysis.isReport(bytes)
    }
}
