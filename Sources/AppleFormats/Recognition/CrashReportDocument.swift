/// Which crash format a file's bytes are, decided in one place for everything that reads crash
/// reports: the server's intake and store, `betactl inspect` and `betactl symbolicate`.
///
/// `init(bytes:)` only recognises (cheap, from the bytes alone, never from a name: the header
/// line of an `.ips`, the first line of a `.crash`, the keys of a KSCrash report, the root element
/// of a HockeySDK upload); `read()` then parses with the format's own reader. A damaged report of a
/// known format is still recognised, so its reader can say what is damaged.
///
/// ```swift
/// let document = try CrashReportDocument(bytes: bytes)   // throws for a photo, a zip, notes…
/// let report = try document.crashReport()                  // .ips, .crash, KSCrash or HockeySDK
/// ```
public struct CrashReportDocument: Sendable {
    /// The formats betactl reads crashes and diagnostics from.
    public enum Format: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
        /// An Apple `.ips` crash report: JSON (bug_type 309 or 109), or iOS 14's header line and text body.
        case ips
        /// An Apple text crash report (`.crash`), as Xcode and older iOS versions write.
        case crashText = "crash"
        /// One KSCrash or SentryCrash JSON report.
        case kscrash
        /// A JSON array of KSCrash reports, as KSCrash's standard sink posts them.
        case kscrashBatch = "kscrash-batch"
        /// A HockeySDK `<crashes><crash>` XML upload.
        case hockeyApp = "hockeyapp-xml"
        /// A low-memory (jetsam) `.ips` report, bug_type 298.
        case jetsam
        /// Any other `.ips` diagnostic report (hangs, wakeups, stacks).
        case diagnostic
        /// A binary PLCrashReporter report, recognised but not decoded.
        case plcrash

        /// The format's name in sentences.
        public var description: String {
            switch self {
            case .ips: "an .ips crash report"
            case .crashText: "a .crash text report"
            case .kscrash: "a KSCrash JSON report"
            case .kscrashBatch: "a JSON array of KSCrash reports"
            case .hockeyApp: "a HockeySDK crash upload"
            case .jetsam: "a low-memory (jetsam) report"
            case .diagnostic: "an .ips diagnostic report"
            case .plcrash: "a PLCrashReporter binary report"
            }
        }

        /// Whether the format holds one crash betactl can symbolicate (`crashReport()`).
        public var isCrash: Bool {
            switch self {
            case .ips, .crashText, .kscrash, .hockeyApp: true
            case .kscrashBatch, .jetsam, .diagnostic, .plcrash: false
            }
        }
    }

    /// What a document holds once read.
    public enum Content: Sendable {
        /// An Apple crash report (`.ips` or `.crash`).
        case crash(CrashReport)
        /// One KSCrash or SentryCrash report.
        case kscrash(KSCrashReport)
        /// The byte ranges of each report in a KSCrash array, found without decoding them.
        case kscrashBatch([Range<Int>])
        /// A HockeySDK upload (one or more crashes).
        case hockeyApp(HockeyAppCrashUpload)
        /// A low-memory report.
        case jetsam(JetsamReport)
        /// Any other diagnostic report.
        case diagnostic(DiagnosticReport)
        /// A PLCrashReporter report's header.
        case plcrash(PLCrashReporterFile)

        /// The crash in betactl's model (a KSCrash report converted, a HockeySDK upload's first
        /// crash); nil for content without one crash (an array, low-memory and other reports).
        public func crashReport() throws(CrashReportDocumentError) -> CrashReport? {
            switch self {
            case .crash(let report): return report
            case .kscrash(let report): return report.crashReport()
            case .hockeyApp(let upload):
                guard let first = upload.crashes.first else { throw .hockeyAppEmpty }
                do { return try first.report() } catch { throw .hockeyAppLog(error) }
            case .kscrashBatch, .jetsam, .diagnostic, .plcrash: return nil
            }
        }
    }

    /// The whole file.
    public let bytes: [UInt8]
    /// Its format.
    public let format: Format
    /// How the format was told, e.g. "an .ips report, bug_type 309 (crash)".
    public let evidence: String

    /// Recognises `bytes` as one of the crash formats; anything else throws `.unrecognized`
    /// naming what the bytes look like and what was expected.
    public init(bytes: [UInt8]) throws(CrashReportDocumentError) {
        try self.init(bytes: bytes, recognition: FileRecognizer.recognize(bytes))
    }

    /// Recognises `bytes` when `FileRecognizer` has already looked at them (`recognition`).
    public init(bytes: [UInt8], recognition: FileRecognition) throws(CrashReportDocumentError) {
        self.bytes = bytes
        switch recognition.kind {
        case .crashReport: format = Self.startsWithJSON(bytes) ? .ips : .crashText
        case .kscrashReport: format = .kscrash
        case .hockeyAppCrashXML: format = .hockeyApp
        case .jetsamReport: format = .jetsam
        case .diagnosticReport: format = .diagnostic
        case .plcrash: format = .plcrash
        case nil where Self.looksLikeKSCrashArray(bytes): format = .kscrashBatch
        default: throw .unrecognized(evidence: recognition.evidence)
        }
        evidence = format == .kscrashBatch ? Format.kscrashBatch.description : recognition.evidence
    }

    /// Parses the document with its format's reader.
    public func read() throws(CrashReportDocumentError) -> Content {
        switch format {
        case .ips, .crashText:
            do { return .crash(try CrashReport(bytes: bytes)) } catch { throw .crash(error) }
        case .kscrash:
            do { return .kscrash(try KSCrashReport(bytes: bytes)) } catch { throw .kscrash(error) }
        case .kscrashBatch:
            do { return .kscrashBatch(try KSCrashBatch.split(bytes)) } catch { throw .kscrashBatch(error) }
        case .hockeyApp:
            do { return .hockeyApp(try HockeyAppCrashUpload(bytes: bytes)) } catch { throw .hockeyApp(error) }
        case .jetsam:
            do { return .jetsam(try JetsamReport(bytes: bytes)) } catch { throw .jetsam(error) }
        case .diagnostic:
            do { return .diagnostic(try DiagnosticReport(bytes: bytes)) } catch { throw .diagnostic(error) }
        case .plcrash:
            guard let file = PLCrashReporterFile(bytes: bytes) else { throw .unrecognized(evidence: evidence) }
            return .plcrash(file)
        }
    }

    /// The crash in betactl's model, ready to symbolicate: an `.ips` or `.crash` report, a KSCrash
    /// report converted, or the first crash of a HockeySDK upload. Other formats throw
    /// `.notACrash` (or `.plcrash`) saying what to do instead.
    public func crashReport() throws(CrashReportDocumentError) -> CrashReport {
        guard format.isCrash else { throw format == .plcrash ? .plcrash : .notACrash(format) }
        guard let report = try read().crashReport() else { throw .notACrash(format) }
        return report
    }

    // MARK: Recognition helpers

    static func startsWithJSON(_ bytes: [UInt8]) -> Bool {
        firstSignificantByte(bytes, from: 0).map { bytes[$0] == UInt8(ascii: "{") } ?? false
    }

    /// `[` then `{`, and KSCrash's keys near the start: the array KSCrash's standard sink posts.
    static func looksLikeKSCrashArray(_ bytes: [UInt8]) -> Bool {
        guard let open = firstSignificantByte(bytes, from: 0), bytes[open] == UInt8(ascii: "["),
              let first = firstSignificantByte(bytes, from: open + 1), bytes[first] == UInt8(ascii: "{") else { return false }
        let head = bytes[first...].prefix(FileRecognizer.textWindow)
        return FileRecognizer.contains(head, "\"binary_images\"") || (FileRecognizer.contains(head, "\"report\"") && FileRecognizer.contains(head, "\"crash\""))
    }

    static func firstSignificantByte(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : start
        while index < bytes.count, bytes[index].isXMLWhitespace { index += 1 }
        return index < bytes.count ? index : nil
    }
}
