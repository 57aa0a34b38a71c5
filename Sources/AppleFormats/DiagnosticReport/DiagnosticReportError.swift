/// Why a file could not be read as an `.ips` diagnostic report.
public enum DiagnosticReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than any report.
    case tooLarge(size: Int, limit: Int)
    /// The file does not start with a JSON header line with a `bug_type`.
    case noHeader
    /// The JSON body cannot be read.
    case damagedBody(bugType: String, detail: String)
    /// A jetsam report's body lacks what every one has, or has a field of the wrong type.
    case damagedJetsam(String)

    /// A sentence naming the problem and the fix.
    public var description: String {
        switch self {
        case let .tooLarge(size, limit):
            return "the diagnostic report is \(size) bytes, more than the \(limit)-byte limit; pass a single report"
        case .noHeader:
            return "not an .ips diagnostic report: it does not start with a JSON line holding bug_type; copy the report again from Settings > Privacy & Security > Analytics Data"
        case let .damagedBody(bugType, detail):
            return "damaged .ips report (bug_type \(bugType)): \(detail); copy the report again from the device"
        case let .damagedJetsam(detail):
            return "damaged jetsam report: \(detail); copy the JetsamEvent report again from the device"
        }
    }
}
