/// Why a file could not be read as a crash report.
public enum CrashReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a crash report in any format betactl knows.
    case unrecognized(String)
    /// The report is in a known format but its contents are broken.
    case malformed(String)

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case let .unrecognized(detail):
            return "not a crash report: \(detail); pass an Apple .crash or .ips file as exported from the device or Xcode"
        case let .malformed(detail):
            return "damaged crash report: \(detail); export the report again from the device, Xcode or TestFlight"
        }
    }
}
