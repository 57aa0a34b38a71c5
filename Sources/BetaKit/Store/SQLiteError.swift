import CSQLite

/// A failure reported by SQLite, with the statement that caused it.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, when known (never contains bound values).
    public var sql: String?

    /// Whether another connection held a lock for longer than the busy timeout.
    public var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
    /// Whether a UNIQUE or PRIMARY KEY constraint failed.
    public var isUniqueViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY are computed macros that Swift cannot import.
        code == SQLITE_CONSTRAINT | (8 << 8) || code == SQLITE_CONSTRAINT | (6 << 8)
    }

    /// Whether a FOREIGN KEY constraint failed.
    public var isForeignKeyViolation: Bool { code == SQLITE_CONSTRAINT | (3 << 8) }

    /// A sentence naming SQLite's complaint and, for the common cases, what to do.
    public var description: String {
        let base = "database error: \(message)"
        switch code & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return "\(base); another betactl process kept the database busy for too long, so retry the command"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return "\(base); the home's database file is damaged, so restore it from a backup"
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM:
            return "\(base); check that the home directory is writable by this user"
        case SQLITE_FULL:
            return "\(base); free some disk space and retry"
        default:
            return base
        }
    }
}
