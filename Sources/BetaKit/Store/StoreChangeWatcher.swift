import Synchronization

/// Tells whether anything was committed to a home's database since it last looked, by any process
/// (SQLite's `PRAGMA data_version` on a connection of its own, which changes when another
/// connection commits). The server polls it to rebuild what it derived from the database, so a
/// setting changed by `betactl init`, a new release or a new tester show up without a restart.
public final class StoreChangeWatcher: Sendable {
    private let connection: Mutex<(db: SQLiteConnection, version: Int64?)>

    /// Opens a dedicated read-only connection to `store`'s database.
    public init(store: Store) throws {
        connection = Mutex((try Store.openReader(path: store.path), nil))
    }

    /// True when a commit happened since the previous call (the first call returns false). A
    /// quick read of SQLite's shared WAL index (microseconds; no file is read unless it changed).
    /// `whenChanged` runs before any other caller can look, so no caller is told "unchanged"
    /// before what this change invalidates is marked stale.
    public func hasChanged(whenChanged: () -> Void = {}) throws -> Bool {
        try connection.withLock { state in
            let version = try state.db.queryOne("PRAGMA data_version")?.int(0) ?? 0
            defer { state.version = version }
            guard let previous = state.version else { return false }
            if previous != version { whenChanged() }
            return previous != version
        }
    }
}
