#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What processing learns from one raw report: its kind and metadata, and for crashes the
/// symbolication outcome, signature and app images.
struct CrashAnalysis: Sendable {
    struct Image: Sendable, Equatable {
        var uuid: String
        var architecture: String
        var name: String
        var hasSymbols: Bool
        var reason: String?
    }

    var status: CrashStatus
    var format: String?
    var bugType: String?
    var error: String?
    var processName: String?
    var bundleID: String?
    var appVersion: String?
    var appBuild: String?
    var osVersion: String?
    var hardwareModel: String?
    var incidentIdentifier: String?
    var crashedAt: String?
    var exceptionType: String?
    var summary: String?
    var signature: CrashSignature?
    var images: [Image] = []

    init(status: CrashStatus, error: String? = nil) {
        self.status = status
        self.error = error
    }

    // Bounds on what one report may make the processor do, far above real reports (a few hundred
    // frames and images): a hostile report past them is unreadable, not a long stall.
    static let maxFrames = 20_000
    static let maxImages = 5_000
    static let maxAppImagesKept = 256

    /// Reads and, for crashes, symbolicates `bytes`. Never throws for bad input: a report that
    /// cannot be read is `unreadable` with the reason. Only the symbolicator's own failures (the
    /// archive cannot be read) throw, and leave the report queued.
    static func analyse(_ bytes: [UInt8], symbolicator: Symbolicator) throws -> CrashAnalysis {
        do {
            let document = try CrashReportDocument(bytes: bytes)
            // A KSCrash array is not one report (the sink splits it), and is never stored whole.
            guard document.format != .kscrashBatch else { throw CrashReportDocumentError.unrecognized(evidence: document.evidence) }
            let content = try document.read()
            if let report = try content.crashReport() { return try crash(report, symbolicator: symbolicator) }
            switch content {
            case .jetsam(let report): return jetsam(report)
            case .diagnostic(let report): return other(report)
            case .plcrash: throw CrashReportDocumentError.plcrash
            case .crash, .kscrash, .hockeyApp, .kscrashBatch: throw CrashReportDocumentError.unrecognized(evidence: document.evidence)
            }
        } catch let error as CrashReportDocumentError {
            return CrashAnalysis(status: .unreadable, error: error.description)
        }
    }

    /// Whether `bytes` are something `analyse` keeps (a crash, low-memory or diagnostic report),
    /// judged from the bytes alone (`CrashReportDocument`); what they look like otherwise. Cheap
    /// enough for intake. A KSCrash array is not one report: KSCrash's sink splits it first.
    static func isReport(_ bytes: [UInt8]) -> (accepted: Bool, evidence: String) {
        do {
            let document = try CrashReportDocument(bytes: bytes)
            return (document.format != .kscrashBatch, document.evidence)
        } catch {
            if case .unrecognized(let evidence) = error { return (false, evidence) }
            return (false, error.description)
        }
    }

    static func crash(_ report: CrashReport, symbolicator: Symbolicator) throws -> CrashAnalysis {
        let frames = report.threads.reduce(report.lastExceptionBacktrace?.count ?? 0) { $0 + $1.frames.count }
        guard frames <= maxFrames else {
            return CrashAnalysis(status: .unreadable, error: "the report has \(frames) frames, more than the \(maxFrames) betactl symbolicates in one report")
        }
        guard report.images.count <= maxImages else {
            return CrashAnalysis(status: .unreadable, error: "the report lists \(report.images.count) images, more than the \(maxImages) betactl reads")
        }
        let result = try symbolicator.symbolicate(report)
        var analysis = CrashAnalysis(status: .symbolicated)
        analysis.format = report.format.rawValue
        analysis.bugType = report.bugType
        analysis.processName = report.processName
        analysis.bundleID = report.bundleIdentifier
        analysis.appVersion = report.version
        analysis.appBuild = report.build
        analysis.osVersion = report.osVersion
        analysis.hardwareModel = report.hardwareModel
        analysis.incidentIdentifier = report.incidentIdentifier
        analysis.crashedAt = report.date
        analysis.signature = result.signature
        analysis.exceptionType = result.signature.exceptionType
        analysis.summary = result.signature.description
        let missing = result.imagesWithoutSymbols.filter(\.isAppImage)
        var images: [Image] = []
        var seen = Set<String>()
        for item in missing {
            guard let uuid = item.uuid?.uuidString, seen.insert(uuid).inserted else { continue }
            let architecture = report.images.first { $0.uuid?.uuidString == uuid }?.architecture ?? ""
            images.append(Image(uuid: uuid, architecture: architecture, name: item.name, hasSymbols: false, reason: item.reason))
        }
        for image in report.images where images.count < maxAppImagesKept && report.isAppImage(image) {
            guard let uuid = image.uuid?.uuidString, seen.insert(uuid).inserted else { continue }
            images.append(Image(uuid: uuid, architecture: image.architecture ?? "", name: image.name, hasSymbols: true))
        }
        analysis.images = images
        // An app image without a UUID can never be symbolicated: it makes the report partial too.
        let unknowable = result.imagesWithoutSymbols.contains { $0.isAppImage && $0.uuid == nil }
        analysis.status = missing.isEmpty && !unknowable ? .symbolicated : .partial
        return analysis
    }

    static func jetsam(_ report: JetsamReport) -> CrashAnalysis {
        var analysis = CrashAnalysis(status: .lowMemory)
        analysis.format = "jetsam"
        analysis.bugType = report.header?.bugType ?? IPSBugType.jetsam
        analysis.osVersion = report.osVersion
        analysis.hardwareModel = report.hardwareModel
        analysis.incidentIdentifier = report.incident
        analysis.crashedAt = report.date
        analysis.processName = report.largestProcess
        analysis.bundleID = report.header?.bundleID
        analysis.appVersion = report.header?.appVersion
        analysis.exceptionType = "JetsamEvent"
        analysis.summary = lowMemorySummary(report)
        return analysis
    }

    /// "largest: Beta (41,000 pages, 640 MB); killed: Beta (per-process-limit)".
    static func lowMemorySummary(_ report: JetsamReport) -> String {
        var parts: [String] = []
        if let top = report.processesBySize.first {
            let size = report.bytes(ofPages: top.residentPages).map { ", \($0 >> 20) MB" } ?? ""
            parts.append("largest \(report.largestProcess ?? top.name) (\(top.residentPages) pages\(size))")
        } else if let largest = report.largestProcess {
            parts.append("largest \(largest)")
        }
        let killed = report.killedProcesses.prefix(5).map { "\($0.name) (\($0.reason ?? "?"))" }
        if !killed.isEmpty { parts.append("killed " + killed.joined(separator: ", ")) }
        return parts.isEmpty ? "low memory" : parts.joined(separator: "; ")
    }

    static func other(_ report: DiagnosticReport) -> CrashAnalysis {
        var analysis = CrashAnalysis(status: .other)
        analysis.format = "ips"
        analysis.bugType = report.bugType
        analysis.processName = report.header.appName ?? report.header.name
        analysis.bundleID = report.header.bundleID
        analysis.appVersion = report.header.appVersion
        analysis.appBuild = report.header.buildVersion
        analysis.osVersion = report.header.osVersion
        analysis.incidentIdentifier = report.header.incidentID
        analysis.crashedAt = report.header.timestamp
        analysis.summary = "bug_type \(report.bugType)" + (report.bugTypeName.map { " (\($0))" } ?? "")
        return analysis
    }
}
