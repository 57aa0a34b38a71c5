import CSQLite
import Synchronization
import PosixIO

/// The home's SQLite database, shared safely by threads and by other processes.
///
/// Every write runs in a `BEGIN IMMEDIATE` transaction on the one read-write connection: the write
/// lock is taken up front, so two processes doing read-modify-write can never both read the old
/// value (no lost update), and waiting happens in SQLite's busy handler instead of surfacing
/// "database is locked". Reads run on their own read-only connections (a small pool), so in WAL
/// mode they never wait for a writer, in this process or another: a long `betactl release` never
/// stalls the server's page views. A process killed mid-transaction leaves only a rolled-back
/// journal behind.
public final class Store: Sendable {
    /// The database file.
    public let path: String
    private let connection: Mutex<SQLiteConnection>
    private let readers = Mutex<[SQLiteConnection]>([])

    /// How long a statement waits for another process's lock before failing.
    static let busyTimeoutMilliseconds: Int32 = 15_000
    /// Idle read connections kept for reuse; more are opened when more threads read at once.
    static let idleReaders = 16

    /// Opens the database at `path`, creating it when `create` is true, and brings its schema up to date.
    public init(path: String, create: Bool) throws {
        self.path = path
        // SQLite would create the file 0644; made 0600 first, the WAL and shared-memory files
        // SQLite adds beside it inherit that mode.
        if create { try Self.createPrivately(path) }
        let db = try SQLiteConnection(path: path, create: create)
        bk_sqlite3_busy_timeout(db.handle, Self.busyTimeoutMilliseconds)
        // journal_mode returns a row, so it cannot go through execute's exec path silently failing.
        try db.query("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;")
        try Schema.migrate(db)
        connection = Mutex(db)
    }

    /// Creates an empty file at `path` with mode 0600 unless something is already there.
    static func createPrivately(_ path: String) throws(FileSystemError) {
        do {
            let fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: HomePermissions.fileMode)
            try? fd.close()
        } catch {
            if !error.alreadyExists { throw FileSystemError(error, operation: "create") }
        }
    }

    /// Runs `body` in a read transaction on a read-only connection, which sees one consistent snapshot.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let db = try takeReader()
        defer { returnReader(db) }
        return try Self.transaction(db, begin: "BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction: all of it commits, or none of it does.
    @discardableResult
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { db in
            try Self.transaction(db, begin: "BEGIN IMMEDIATE", body)
        }
    }

    private func takeReader() throws -> SQLiteConnection {
        if let db = readers.withLock({ $0.popLast() }) { return db }
        return try Self.openReader(path: path)
    }

    private func returnReader(_ db: SQLiteConnection) {
        readers.withLock { idle in
            if idle.count < Self.idleReaders { idle.append(db) }
        }
    }

    /// A read-only connection to the database at `path` (which must exist and be in WAL mode).
    static func openReader(path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, create: false, readOnly: true)
        bk_sqlite3_busy_timeout(db.handle, busyTimeoutMilliseconds)
        return db
    }

    private static func transaction<T>(_ db: SQLiteConnection, begin: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try beginWithRetry(db, begin)
        do {
            let result = try body(db)
            try db.execute("COMMIT")
            return result
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    // The busy handler covers almost every wait; this loop covers the rare
    // SQLITE_BUSY that SQLite returns without consulting it (e.g. during WAL recovery).
    private static func beginWithRetry(_ db: SQLiteConnection, _ begin: String) throws(SQLiteError) {
        var attempt = 0
        while true {
            do {
                try db.execute(begin)
                return
            } catch where error.isBusy && attempt < 50 {
                attempt += 1
                CurrentThread.sleep(for: .microseconds(min(attempt, 10) * 20_000))
            }
        }
    }

    /// The schema version the database is at.
    public var schemaVersion: Int {
        (try? read { db in try db.queryOne("PRAGMA user_version")?.int(0) ?? 0 }).map(Int.init) ?? 0
    }

    /// Copies the whole database into a new file at `destination` (created 0600) with SQLite's
    /// online backup API. It runs as one step under one read transaction, so the copy is a
    /// consistent snapshot while other processes go on writing (WAL mode lets them).
    public func backup(to destination: String) throws {
        try Self.createPrivately(destination)
        let target = try SQLiteConnection(path: destination, create: true)
        try connection.withLock { db throws in
            var attempt = 0
            while true {
                guard let backup = bk_sqlite3_backup_init(target.handle, "main", db.handle, "main") else {
                    throw target.error(sql: nil)
                }
                let step = bk_sqlite3_backup_step(backup, -1)
                let finish = bk_sqlite3_backup_finish(backup)
                if step == SQLITE_DONE && finish == SQLITE_OK { return }
                let primary = step & 0xff
                if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) && attempt < 50 {
                    attempt += 1
                    CurrentThread.sleep(for: .microseconds(min(attempt, 10) * 20_000))
                    continue
                }
                throw SQLiteError(code: step == SQLITE_DONE ? finish : step, message: target.lastMessage, sql: nil)
            }
        }
    }

    /// Runs SQLite's own consistency check and returns its complaints (empty when healthy).
    public func integrityProblems() throws -> [String] {
        try read { db in
            let rows = try db.query("PRAGMA integrity_check")
            let messages = rows.compactMap { $0.string(0) }
            let foreignKeys = try db.query("PRAGMA foreign_key_check")
            return (messages == ["ok"] ? [] : messages) + foreignKeys.map { "foreign key violation in table \($0.string(0) ?? "?") row \($0.int(1) ?? -1)" }
        }
    }
}
