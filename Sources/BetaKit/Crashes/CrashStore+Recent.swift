#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CrashStore {
    /// How many reports each crash group received since `date` (by when each report was first
    /// received, as the groups' first and last seen are), by signature key; a group with none
    /// since then is absent. The dashboard's overview lists the groups of the last days with it.
    public func groupCounts(since date: Date) throws -> [String: Int] {
        let since = Timestamp.string(date)
        return try home.store.read { db in
            // Timestamps are stored as fixed-width ISO 8601 UTC text, so text order is time order
            // (and the signature index, which holds received_at, answers the query).
            let rows = try db.query("""
                SELECT signature_key, count(*) FROM crash_reports
                WHERE signature_key IS NOT NULL AND received_at >= ? GROUP BY signature_key
                """, [.text(since)])
            var counts: [String: Int] = [:]
            for row in rows {
                guard let key = row.string(0) else { continue }
                counts[key] = Int(row.int(1) ?? 0)
            }
            return counts
        }
    }
}
