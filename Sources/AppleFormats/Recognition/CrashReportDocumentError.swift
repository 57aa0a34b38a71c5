/// Why bytes could not be read as a crash report: not a crash format at all, a known format
/// whose reader found damage (the reader's own error, kept whole), or a format with no crash in it.
public enum CrashReportDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not any crash format betactl reads; `evidence` says what the bytes look like.
    case unrecognized(evidence: String)
    /// An `.ips` or `.crash` report that cannot be read.
    case crash(CrashReportError)
    /// A KSCrash report that cannot be read.
    case kscrash(KSCrashReportError)
    /// A KSCrash array that cannot be split into reports.
    case kscrashBatch(KSCrashBatchError)
    /// A HockeySDK upload whose XML cannot be read.
    case hockeyApp(HockeyAppCrashUploadError)
    /// A HockeySDK upload whose crash log cannot be read.
    case hockeyAppLog(CrashReportError)
    /// A HockeySDK upload without any `<crash>`.
    case hockeyAppEmpty
    /// A low-memory report that cannot be read.
    case jetsam(DiagnosticReportError)
    /// Another diagnostic report that cannot be read.
    case diagnostic(DiagnosticReportError)
    /// A binary PLCrashReporter report, which betactl does not decode.
    case plcrash
    /// A report of this format holds no crash to symbolicate.
    case notACrash(CrashReportDocument.Format)

    /// What betactl reads, for messages about anything else.
    public static let expected = "an Apple .ips or .crash report, a KSCrash or SentryCrash JSON report, or a HockeySDK crash upload"

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case .unrecognized(let evidence):
            "it is not a crash report betactl reads: it looks like \(evidence); expected \(Self.expected)"
        case .crash(let error): "the crash report cannot be read: \(error)"
        case .kscrash(let error): "the KSCrash report cannot be read: \(error)"
        case .kscrashBatch(let error): "the KSCrash array cannot be read: \(error)"
        case .hockeyApp(let error): "the HockeyApp crash upload cannot be read: \(error)"
        case .hockeyAppLog(let error): "the crash log in the HockeyApp upload cannot be read: \(error)"
        case .hockeyAppEmpty: "the HockeyApp upload holds no crash"
        case .jetsam(let error): "the low-memory report cannot be read: \(error)"
        case .diagnostic(let error): "the diagnostic report cannot be read: \(error)"
        case .plcrash:
            "it is a binary PLCrashReporter report, which betactl does not read; send its text rendering (PLCrashReportTextFormatter) instead"
        case .notACrash(let format):
            "it is \(format), which holds no crash to symbolicate; `betactl inspect` summarises it"
        }
    }
}
