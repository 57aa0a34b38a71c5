#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CrashStore {
    /// Creates an ingest key for the app `bundleID`: write-only (it can send crash reports and
    /// nothing else) and unrelated to testers' page links.
    public func createKey(bundleID: String, now: Date) throws -> CrashKey {
        let trimmed = String(bundleID.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard Self.isBundleID(trimmed) else { throw CrashError.invalidBundleID(bundleID) }
        let key = InviteToken.make()
        let stamp = Timestamp.string(now)
        let id: Int64 = try home.store.write { db in
            try db.query("INSERT INTO crash_keys (bundle_id, key, key_digest, created_at) VALUES (?, ?, ?, ?)",
                         [.text(trimmed), .text(key), .text(InviteToken.digest(key)), .text(stamp)])
            return try db.queryOne("SELECT last_insert_rowid()")?.int(0) ?? 0
        }
        return CrashKey(id: id, bundleID: trimmed, key: key, createdAt: Timestamp.date(stamp) ?? now, revokedAt: nil)
    }

    /// Every ingest key, revoked ones too, oldest first.
    public func keys() throws -> [CrashKey] {
        try home.store.read { db in
            try db.query("SELECT \(CrashKey.columns.list) FROM crash_keys ORDER BY id").map { row throws(SQLRowError) in try CrashKey(row: row) }
        }
    }

    /// Revokes the key given by its number or its text; reports it brought in are kept.
    @discardableResult
    public func revokeKey(_ reference: String, now: Date) throws -> CrashKey {
        try home.store.write { db in
            let row = try db.queryOne("SELECT \(CrashKey.columns.list) FROM crash_keys WHERE key = ? OR CAST(id AS TEXT) = ?",
                                      [.text(reference), .text(reference)])
            guard let id = try row.map({ row throws(SQLRowError) in try CrashKey(row: row) })?.id else { throw CrashError.unknownKey(reference) }
            try db.query("UPDATE crash_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", [.text(Timestamp.string(now)), .integer(id)])
            guard let updated = try db.queryOne("SELECT \(CrashKey.columns.list) FROM crash_keys WHERE id = ?", [.integer(id)]) else {
                throw CrashError.unknownKey(reference)
            }
            return try CrashKey(row: updated)
        }
    }

    /// The active key `presented` is, looked up by its digest; nil for unknown or revoked keys.
    public func activeKey(_ presented: String) throws -> CrashKey? {
        guard InviteToken.isPlausible(presented) else { return nil }
        return try home.store.read { db in
            try db.queryOne("SELECT \(CrashKey.columns.list) FROM crash_keys WHERE key_digest = ? AND revoked_at IS NULL",
                            [.text(InviteToken.digest(presented))]).map { row throws(SQLRowError) in try CrashKey(row: row) }
        }
    }

    /// Letters, digits, dots and hyphens, as Apple allows, up to 255 characters.
    static func isBundleID(_ text: String) -> Bool {
        let utf8 = text.utf8
        return (1 ... 255).contains(utf8.count) && utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }
}
