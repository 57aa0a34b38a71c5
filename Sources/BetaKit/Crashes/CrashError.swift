/// Why a crash report, key or query was refused.
public enum CrashError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The report is larger than the configured limit.
    case tooLarge(size: Int64, limit: Int64)
    /// The report is empty.
    case empty(name: String)
    /// The bytes are not any kind of report betactl keeps.
    case notAReport(name: String, evidence: String)
    /// No report has this number.
    case unknownReport(String)
    /// No group has this signature key.
    case unknownGroup(String)
    /// No ingest key matches.
    case unknownKey(String)
    /// A bundle identifier that cannot be one.
    case invalidBundleID(String)
    /// A status filter that does not exist.
    case unknownStatus(String)

    /// One sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .tooLarge(size, limit):
            "the report is \(size) bytes, more than the \(limit)-byte limit for one crash report; send the .ips or .crash file itself, not an archive of several"
        case let .empty(name):
            "\(name) is empty; send the report file's contents"
        case let .notAReport(name, evidence):
            "\(name) is not a crash report (it looks like \(evidence)); send an .ips, .crash or .txt report as iOS wrote it"
        case let .unknownReport(text):
            "there is no crash report \(text); `betactl crashes` lists them"
        case let .unknownGroup(text):
            "there is no crash group \(text); `betactl crash-groups` lists them"
        case let .unknownKey(text):
            "there is no ingest key \(text); `betactl crash-key list` shows the keys"
        case let .invalidBundleID(text):
            "\"\(text)\" is not a bundle identifier; give the app's identifier such as com.example.app"
        case let .unknownStatus(text):
            "\"\(text)\" is not a crash status; use one of \(CrashStatus.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    /// Bad input, or a missing record.
    public var category: ErrorCategory {
        switch self {
        case .tooLarge, .empty, .notAReport, .invalidBundleID, .unknownStatus: .invalidInput
        case .unknownReport, .unknownGroup, .unknownKey: .refused
        }
    }
}
