/// Why a file could not be read as a KSCrash report.
public enum KSCrashReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than any crash report.
    case tooLarge(size: Int, limit: Int)
    /// Not JSON, or a field has the wrong type.
    case malformed(String)
    /// A format version other than 2.x or 3.x.
    case unsupportedVersion(String)
    /// A section every report has is missing.
    case missingSection(String)
    /// More of something than any real report holds.
    case tooMany(String, Int, Int)
    /// Arrays and objects nest deeper than `JSONNesting.maximumDepth`.
    case nestedTooDeep(JSONNesting.TooDeep)

    /// A sentence naming the problem and the fix.
    public var description: String {
        switch self {
        case let .tooLarge(size, limit):
            return "the KSCrash report is \(size) bytes, more than the \(limit)-byte limit; pass a single report"
        case let .malformed(detail):
            return "damaged KSCrash report: \(detail); send the report again from the app"
        case let .unsupportedVersion(version):
            return "the KSCrash report has format version \(version); betactl reads versions 2.x and 3.x, so convert it with a current KSCrash"
        case let .missingSection(name):
            return "the KSCrash report has no \"\(name)\" section; send the whole report again from the app"
        case let .tooMany(what, count, limit):
            return "the KSCrash report holds \(count) \(what), more than the \(limit) betactl reads; it is not a real report"
        case let .nestedTooDeep(tooDeep):
            return "the KSCrash report's \(tooDeep); it is not a real report"
        }
    }
}
