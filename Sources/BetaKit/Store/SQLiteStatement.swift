import CSQLite

/// A value bound to, or read from, a SQLite statement.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(nilLiteral: ()) { self = .null }

    static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
    static func optional(_ number: Int64?) -> SQLiteValue { number.map { .integer($0) } ?? .null }
}

/// One result row, copied out of SQLite so it outlives the statement step.
struct SQLiteRow: Sendable {
    var values: [SQLiteValue]

    subscript(_ index: Int) -> SQLiteValue { index < values.count ? values[index] : .null }

    func int(_ index: Int) -> Int64? {
        if case let .integer(v) = self[index] { return v }
        return nil
    }

    func string(_ index: Int) -> String? {
        switch self[index] {
        case let .text(v): return v
        case let .integer(v): return String(v)
        default: return nil
        }
    }

    func blob(_ index: Int) -> [UInt8]? {
        switch self[index] {
        case let .blob(v): return v
        case let .text(v): return Array(v.utf8)
        default: return nil
        }
    }
}

/// A prepared statement owned by a `SQLiteConnection`'s cache.
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(_ handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { bk_sqlite3_finalize(handle) }

    func reset() {
        bk_sqlite3_reset(handle)
        bk_sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = bk_sqlite3_bind_null(handle, index)
            case let .integer(v): rc = bk_sqlite3_bind_int64(handle, index, v)
            case let .real(v): rc = bk_sqlite3_bind_double(handle, index, v)
            case let .text(v): rc = bk_sqlite3_bind_text(handle, index, v, -1, Self.transient)
            case let .blob(v):
                rc = v.withUnsafeBytes { bk_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard rc == SQLITE_OK else { throw connection.error(sql: sql) }
        }
    }

    /// Steps once; nil when the statement is done.
    func next() throws(SQLiteError) -> SQLiteRow? {
        let rc = bk_sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW:
            let count = bk_sqlite3_column_count(handle)
            var values: [SQLiteValue] = []
            values.reserveCapacity(Int(count))
            for column in 0 ..< count {
                switch bk_sqlite3_column_type(handle, column) {
                case SQLITE_INTEGER: values.append(.integer(bk_sqlite3_column_int64(handle, column)))
                case SQLITE_FLOAT: values.append(.real(bk_sqlite3_column_double(handle, column)))
                case SQLITE_TEXT:
                    if let text = bk_sqlite3_column_text(handle, column) {
                        values.append(.text(String(cString: text)))
                    } else { values.append(.null) }
                case SQLITE_BLOB:
                    let size = Int(bk_sqlite3_column_bytes(handle, column))
                    if let base = bk_sqlite3_column_blob(handle, column), size > 0 {
                        values.append(.blob(Array(UnsafeRawBufferPointer(start: base, count: size))))
                    } else { values.append(.blob([])) }
                default: values.append(.null)
                }
            }
            return SQLiteRow(values: values)
        case SQLITE_DONE:
            return nil
        default:
            let error = connection.error(sql: sql)
            bk_sqlite3_reset(handle)
            throw error
        }
    }

    func all() throws(SQLiteError) -> [SQLiteRow] {
        defer { reset() }
        var rows: [SQLiteRow] = []
        while let row = try next() { rows.append(row) }
        return rows
    }

    // SQLITE_TRANSIENT tells SQLite to copy the bytes before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
