import CSQLite

/// One SQLite connection. Not thread-safe on its own: `Store` serialises access with a mutex,
/// which is why the unchecked conformance is sound (the connection never escapes the lock).
///
/// The wrapper is deliberately thin; typed models are built in the store's
/// extensions, never in callers.
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]

    /// Opens (creating if asked) the database at `path`, read-only when asked.
    init(path: String, create: Bool, readOnly: Bool = false) throws(SQLiteError) {
        if let failure = bk_sqlite3_load_error() {
            // Not SQLITE_CANTOPEN: its hint is about the home's permissions, which are not the problem.
            throw SQLiteError(code: SQLITE_ERROR, message: "cannot load the SQLite library (\(String(cString: failure))); install SQLite 3 (libsqlite3-0 on Debian and Ubuntu)", sql: nil)
        }
        var db: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        let rc = bk_sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: bk_sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            if let db { bk_sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        handle = db
        bk_sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        statementCache.removeAll()
        bk_sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows of interest.
    func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = bk_sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            bk_sqlite3_free(errorMessage)
            throw SQLiteError(code: bk_sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, reused across calls.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statementCache[sql] {
            cached.reset()
            return cached
        }
        var statement: OpaquePointer?
        let rc = bk_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(code: bk_sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
        }
        let prepared = SQLiteStatement(statement, connection: self, sql: sql)
        statementCache[sql] = prepared
        return prepared
    }

    /// Runs `sql` with `bindings` and returns every row.
    @discardableResult
    func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        return try statement.all()
    }

    /// Runs `sql` with `bindings` and returns the first row, if any.
    func queryOne(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteRow? {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        return try statement.next()
    }

    /// The rowid of the most recent successful INSERT.
    var lastInsertRowID: Int64 { bk_sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent statement.
    var changes: Int { Int(bk_sqlite3_changes(handle)) }

    var lastMessage: String { String(cString: bk_sqlite3_errmsg(handle)) }

    func error(sql: String?) -> SQLiteError {
        SQLiteError(code: bk_sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
    }
}
