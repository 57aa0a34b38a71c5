/// A database row that does not hold what betactl wrote there: a value missing, of the wrong
/// type or unreadable in a named column. Only a database changed outside betactl (or damaged)
/// gives one.
public struct SQLRowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the column's value.
    public enum Problem: Sendable, Equatable {
        /// NULL where a value is required.
        case missing
        /// A value of another storage class.
        case wrongType(expected: String, found: String)
        /// Text that does not read as what the column holds.
        case unreadable(String, expected: String)
        /// The SELECT does not read the column (a mistake in betactl itself).
        case notSelected
    }

    /// The column, as the SELECT names it (`r.status`, `upload_count`).
    public var column: String
    /// What is wrong with it.
    public var problem: Problem

    /// Creates an error for `column`.
    public init(column: String, problem: Problem) {
        self.column = column
        self.problem = problem
    }

    /// A sentence naming the column, the problem and the fix.
    public var description: String {
        let what = switch problem {
        case .missing: "is empty (NULL) where betactl always stores a value"
        case let .wrongType(expected, found): "holds \(found) where betactl stores \(expected)"
        case let .unreadable(text, expected): "holds \"\(text.prefix(60))\", which is not \(expected)"
        case .notSelected: "is not read by the query (a betactl bug; please report it)"
        }
        let fix = problem == .notSelected ? "" : "; the database was changed outside betactl or is damaged, so restore the home from a backup (betactl backup)"
        return "database error: column \(column) \(what)\(fix)"
    }
}
