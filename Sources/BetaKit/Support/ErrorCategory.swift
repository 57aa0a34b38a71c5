/// What kind of failure an error is, so front ends can choose an exit status or HTTP code.
public enum ErrorCategory: Sendable {
    /// The input itself is malformed: a bad UDID, an unreadable file (CLI exit 65, HTTP 400/422).
    case invalidInput
    /// The request is well-formed but not allowed: a limit, a duplicate, a missing record (CLI exit 1, HTTP 409/404).
    case refused
    /// Something went wrong while doing the work: I/O, the database (CLI exit 1, HTTP 500).
    case failed
}

/// An error that knows its `ErrorCategory`. Errors without it count as `.failed`.
public protocol CategorizedError: Error {
    /// The kind of failure.
    var category: ErrorCategory { get }
}
