extension Archive {
    /// How many completed downloads each release has, by release id (releases without any are absent).
    public func downloadCounts() throws -> [Int64: Int] {
        try home.store.read { db in
            var counts: [Int64: Int] = [:]
            for row in try db.query("SELECT release_id, COUNT(*) FROM downloads GROUP BY release_id") {
                if let id = row.int(0), let count = row.int(1) { counts[id] = Int(count) }
            }
            return counts
        }
    }
}
