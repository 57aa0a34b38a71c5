#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Reads any Apple file betactl handles and summarises it: the model behind `betactl inspect`,
/// and behind pages and API calls that show what a file is.
///
/// The kind comes from the bytes (`FileRecognizer`), never from the file name; folders are told
/// by their layout (`.app`, `.xcarchive`, `.dSYM`). Large containers (zips, Mach-O files) are
/// streamed or mapped; every other kind is read whole up to `maxDocumentSize`. Nothing needs a
/// betactl home: zip entries that must be mapped are extracted under `workDirectory` and removed.
public struct Inspector: Sendable {
    /// The time profiles and certificates are judged at (expired or not).
    public var now: Date
    /// Where zip entries are extracted while a file is inspected; it must exist.
    public var workDirectory: String

    /// Documents (reports, profiles, plists) larger than this are not any kind betactl reads whole.
    public static let maxDocumentSize = 64 << 20

    /// Creates an inspector.
    public init(now: Date, workDirectory: String) {
        self.now = now
        self.workDirectory = workDirectory
    }

    /// Inspects the file or folder at `path`.
    public func inspect(path: String) throws(InspectionError) -> FileInspection {
        switch FileKind(path: path) {
        case .missing: throw InspectionError.missing(path: path)
        case .directory: return try inspectDirectory(path)
        case .regularFile, .other: return try inspectFile(path)
        }
    }

    func inspectFile(_ path: String) throws(InspectionError) -> FileInspection {
        let mapped: MappedFile
        do { mapped = try MappedFile(path: path) } catch { throw InspectionError.fileSystem(error) }
        let isZip = mapped.withBytes { $0.starts(with: [0x50, 0x4B, 0x03, 0x04]) || $0.starts(with: [0x50, 0x4B, 0x05, 0x06]) }
        if isZip { return try inspectZip(path, size: UInt64(mapped.count)) }
        if let machO = try mapped.withBytes({ (bytes) throws(InspectionError) -> FileInspection? in
            MachOFile.looksLikeMachO(bytes) ? try inspectMachO(bytes, path: path) : nil
        }) {
            return machO
        }
        guard mapped.count <= Self.maxDocumentSize else {
            throw InspectionError.tooLarge(path: path, size: UInt64(mapped.count), limit: Self.maxDocumentSize)
        }
        return try inspect(bytes: mapped.withBytes { Array($0) }, path: path)
    }

    /// Inspects a file already in memory (an upload); `path` only names it in the result.
    public func inspect(bytes: [UInt8], path: String) throws(InspectionError) -> FileInspection {
        let recognition = FileRecognizer.recognize(bytes)
        guard let kind = recognition.kind else {
            // A KSCrash array is no single file kind, but CrashReportDocument (the intake's reader) knows it.
            if let document = try? CrashReportDocument(bytes: bytes, recognition: recognition), document.format == .kscrashBatch {
                return try kscrashBatch(document, path: path)
            }
            throw InspectionError.unrecognized(path: path, evidence: recognition.evidence)
        }
        func damaged(_ error: any Error) -> InspectionError { .damaged(path: path, kind: kind, detail: "\(error)") }
        let summary: InspectionSummary
        do {
            switch kind {
            case .provisioningProfile:
                summary = .provisioningProfile(ProfileSummary(try ProvisioningProfile(bytes: bytes), now: now))
            case .mobileconfig:
                summary = .mobileconfig(MobileConfigSummary(try MobileConfig(bytes: bytes), now: now))
            case .deviceEnrollmentReply:
                summary = .enrollmentReply(EnrollmentReplySummary(try DeviceEnrollmentReply(bytes: bytes), now: now))
            case .crashReport, .jetsamReport, .diagnosticReport, .kscrashReport, .hockeyAppCrashXML, .plcrash:
                summary = try crashSummary(bytes, recognition: recognition, path: path)
            case .kscrashBatch:
                // The recognizer names no batches (they are told apart above); kept for exhaustiveness.
                throw InspectionError.unrecognized(path: path, evidence: recognition.evidence)
            case .deviceList:
                summary = try deviceList(bytes)
            case .plist:
                let value = try PlistValue(parsing: bytes)
                summary = .plist(try PlistSummary(value, format: bytes.starts(with: Array("bplist".utf8)) ? "binary" : "xml"))
            case .png:
                let image = try PNGImage(bytes: bytes)
                summary = .png(PNGSummary(width: image.width, height: image.height, cgbi: image.wasCgBI))
            case .dsym, .macho:
                guard let result = try bytes.withUnsafeBytes({ (raw) throws(InspectionError) -> FileInspection? in try inspectMachO(raw, path: path) }) else {
                    throw InspectionError.unrecognized(path: path, evidence: recognition.evidence)
                }
                return result
            case .ipa, .xcarchive, .app:
                return try inspectZipBytes(bytes, path: path)
            }
        } catch let error as InspectionError {
            throw error
        } catch {
            throw damaged(error)
        }
        return FileInspection(path: path, kind: kind, summary: summary)
    }

    /// A crash or diagnostic report, read through `CrashReportDocument` like the server's store
    /// and `symbolicate` read it. A reader's error is the damage, unwrapped.
    func crashSummary(_ bytes: [UInt8], recognition: FileRecognition, path: String) throws -> InspectionSummary {
        let content: CrashReportDocument.Content
        do {
            content = try CrashReportDocument(bytes: bytes, recognition: recognition).read()
        } catch {
            switch error {
            case .unrecognized(let evidence): throw InspectionError.unrecognized(path: path, evidence: evidence)
            case .crash(let detail): throw detail
            case .kscrash(let detail): throw detail
            case .kscrashBatch(let detail): throw detail
            case .hockeyApp(let detail): throw detail
            case .jetsam(let detail), .diagnostic(let detail): throw detail
            case .hockeyAppLog, .hockeyAppEmpty, .plcrash, .notACrash: throw error
            }
        }
        switch content {
        case .crash(let report): return .crashReport(CrashReportSummary(report))
        case .kscrash(let report): return .kscrash(KSCrashSummary(report))
        case .hockeyApp(let upload): return .hockeyApp(HockeyAppSummary(upload))
        case .jetsam(let report): return .jetsam(JetsamSummary(report))
        case .diagnostic(let report): return .diagnostic(DiagnosticSummary(report))
        case .plcrash(let file): return .plcrash(PLCrashSummary(file))
        case .kscrashBatch: throw InspectionError.unrecognized(path: path, evidence: recognition.evidence)
        }
    }

    /// A JSON array of KSCrash reports: how many, and each one's summary or problem.
    func kscrashBatch(_ document: CrashReportDocument, path: String) throws(InspectionError) -> FileInspection {
        let content: CrashReportDocument.Content
        do { content = try document.read() } catch {
            if case .kscrashBatch(let detail) = error { throw .damaged(path: path, kind: .kscrashBatch, detail: "\(detail)") }
            throw .unrecognized(path: path, evidence: document.evidence)
        }
        guard case .kscrashBatch(let ranges) = content else { throw .unrecognized(path: path, evidence: document.evidence) }
        return FileInspection(path: path, kind: .kscrashBatch, summary: .kscrashBatch(KSCrashBatchSummary(document.bytes, ranges: ranges)))
    }

    func deviceList(_ bytes: [UInt8]) throws -> InspectionSummary {
        if DeviceListPlist.looksLikePlist(bytes) {
            return .deviceList(DeviceListSummary(try DeviceListPlist.parse(Data(bytes)), format: .deviceids))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DeviceListError(problems: [DeviceListProblem(location: nil, message: "the file is not UTF-8 text")])
        }
        return .deviceList(DeviceListSummary(try DeviceListTSV.parse(text), format: .tsv))
    }

    /// A Mach-O or DWARF file: every slice's UUID, architecture, DWARF versions and signature.
    func inspectMachO(_ bytes: UnsafeRawBufferPointer, path: String) throws(InspectionError) -> FileInspection? {
        let (fat, slices): (Bool, [MachOSliceSummary])
        do { (fat, slices) = try MachOSliceSummary.slices(of: bytes, path: nil) } catch {
            throw InspectionError.damaged(path: path, kind: .macho, detail: error.description)
        }
        let kind: AppleFileKind = slices.contains { $0.fileType == "dsym" } ? .dsym : .macho
        if slices.allSatisfy({ $0.uuid == nil }), let problem = slices.compactMap(\.problem).first {
            throw InspectionError.damaged(path: path, kind: kind, detail: problem)
        }
        var summary = MachOSummary(fat: fat, slices: slices, size: UInt64(bytes.count))
        if kind == .macho, slices.contains(where: { $0.identifier != nil }) {
            let name = String(path.split(separator: "/").last ?? Substring(path))
            let result = MachOSignatureVerifier(cms: LibcryptoCodeSignatureCMS()).verify(bytes, path: name)
            var report = BundleSignatureReport()
            report.executables = [.init(path: name, slices: result.slices, cdHashes: result.cdHashes)]
            report.problems = result.problems
            summary.signature = CodeSignatureSummary(path: nil, report: report)
        }
        return FileInspection(path: path, kind: kind, summary: .machO(summary))
    }
}
