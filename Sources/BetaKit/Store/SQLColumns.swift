#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The columns one SELECT reads, in order: the list the SQL is built from and the names its
/// decoder reads by, kept in one value so the two cannot drift apart (no reading column 22 for
/// column 23). Each entry is a plain column (`r.id`, read as `r.id`) or an expression with its
/// `AS` name (`(SELECT count(*) …) AS upload_count`, read as `upload_count`).
///
/// ```swift
/// static let columns = SQLColumns(["t.id", "t.name", "t.email"])
/// init(row: SQLiteRow) throws(SQLRowError) {
///     let row = Self.columns.reader(row)
///     id = try row.int("t.id")
///     …
/// }
/// // db.query("SELECT \(Tester.columns.list) FROM testers t")
/// ```
struct SQLColumns: Sendable {
    /// Each column's SQL, as given.
    let entries: [String]
    private let positions: [String: Int]

    /// A column list; names must be unique.
    init(_ entries: [String]) {
        self.entries = entries
        var positions: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { positions[Self.name(of: entry)] = index }
        self.positions = positions
    }

    /// The list for a SELECT: `r.id, r.blob, …`.
    var list: String { entries.joined(separator: ", ") }

    /// The column named `name`'s position in the row, nil when the list has no such column.
    func position(of name: String) -> Int? { positions[name] }

    /// A reader of `row`, a row of a SELECT built from `list`.
    func reader(_ row: SQLiteRow) -> SQLRowReader { SQLRowReader(row: row, columns: self) }

    /// The name an entry is read by: its `AS` name, else the entry itself.
    static func name(of entry: String) -> String {
        let words = entry.split(separator: " ")
        guard words.count >= 3, words[words.count - 2] == "AS" else { return entry }
        return String(words[words.count - 1])
    }
}

/// Reads one row's values by column name (see `SQLColumns`): required values throw when NULL,
/// every value throws when it has the wrong type, each error naming the column.
struct SQLRowReader {
    let row: SQLiteRow
    let columns: SQLColumns

    func value(_ name: String) throws(SQLRowError) -> SQLiteValue {
        guard let position = columns.position(of: name) else { throw SQLRowError(column: name, problem: .notSelected) }
        return row[position]
    }

    /// An INTEGER that may be NULL.
    func optionalInt(_ name: String) throws(SQLRowError) -> Int64? {
        switch try value(name) {
        case .null: return nil
        case .integer(let number): return number
        case let other: throw SQLRowError(column: name, problem: .wrongType(expected: "an integer", found: other.typeName))
        }
    }

    /// An INTEGER that must be there.
    func int(_ name: String) throws(SQLRowError) -> Int64 {
        guard let number = try optionalInt(name) else { throw SQLRowError(column: name, problem: .missing) }
        return number
    }

    /// TEXT (or an INTEGER, read as its digits) that may be NULL.
    func optionalText(_ name: String) throws(SQLRowError) -> String? {
        switch try value(name) {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case let other: throw SQLRowError(column: name, problem: .wrongType(expected: "text", found: other.typeName))
        }
    }

    /// TEXT that must be there.
    func text(_ name: String) throws(SQLRowError) -> String {
        guard let text = try optionalText(name) else { throw SQLRowError(column: name, problem: .missing) }
        return text
    }

    /// TEXT that must be there and that `parse` reads as a value (a UUID, a digest…); `expected`
    /// names what it should be for the error when `parse` gives nil.
    func parsed<Value>(_ name: String, as expected: String, _ parse: (String) -> Value?) throws(SQLRowError) -> Value {
        let text = try text(name)
        guard let value = parse(text) else { throw SQLRowError(column: name, problem: .unreadable(text, expected: expected)) }
        return value
    }

    /// A stored timestamp (`Timestamp`) that may be NULL.
    func optionalDate(_ name: String) throws(SQLRowError) -> Date? {
        guard let text = try optionalText(name) else { return nil }
        guard let date = Timestamp.date(text) else { throw SQLRowError(column: name, problem: .unreadable(text, expected: "a timestamp")) }
        return date
    }

    /// A stored timestamp that must be there.
    func date(_ name: String) throws(SQLRowError) -> Date {
        guard let date = try optionalDate(name) else { throw SQLRowError(column: name, problem: .missing) }
        return date
    }

    /// A stored enumeration value (its raw text) that may be NULL.
    func optional<Value: RawRepresentable>(_ name: String, as type: Value.Type) throws(SQLRowError) -> Value? where Value.RawValue == String {
        guard let text = try optionalText(name) else { return nil }
        guard let value = Value(rawValue: text) else { throw SQLRowError(column: name, problem: .unreadable(text, expected: "one of betactl's values")) }
        return value
    }

    /// A stored enumeration value that must be there.
    func required<Value: RawRepresentable>(_ name: String, as type: Value.Type) throws(SQLRowError) -> Value where Value.RawValue == String {
        guard let value = try optional(name, as: type) else { throw SQLRowError(column: name, problem: .missing) }
        return value
    }
}

extension SQLiteValue {
    /// SQLite's name for the value's storage class, for messages.
    var typeName: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}
