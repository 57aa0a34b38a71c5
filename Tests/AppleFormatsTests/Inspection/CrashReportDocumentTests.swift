import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// The one place that says which crash format bytes are: every real format to its case, reading
/// each with its own reader, and anything else refused with what was expected.
@Suite struct CrashReportDocumentTests {
    static let local: [(String, CrashReportDocument.Format)] = [
        ("symbols/crashes/App-309.ips", .ips), ("symbols/crashes/App-109.ips", .ips),
        ("symbols/crashes/App-legacy.crash", .crashText), ("symbols/crashes/App-exception.crash", .crashText),
        ("inspect/kscrash/kscrash-2.0.json", .kscrash), ("inspect/kscrash/kscrash-3.4.0-microseconds.json", .kscrash),
        ("inspect/kscrash/sentrycrash-3.2.0.json", .kscrash),
        ("inspect/hockeyapp/crash-upload.xml", .hockeyApp),
        ("inspect/ips/JetsamEvent-2024-05-06-101112.ips", .jetsam), ("inspect/ips/Stacks-2024-05-06-101112.ips", .diagnostic),
        ("inspect/plcrash/App.plcrash", .plcrash),
    ]

    @Test(arguments: local.map(\.0))
    func everyGeneratedFormatIsToldAndReadByItsOwnReader(_ path: String) throws {
        let expected = try #require(Self.local.first { $0.0 == path }?.1)
        let document = try CrashReportDocument(bytes: [UInt8](try LocalFixtures.data(path)))
        #expect(document.format == expected, "\(document.evidence)")
        let content = try document.read()
        switch (expected, content) {
        case (.ips, .crash(let report)): #expect(report.format != .text)
        case (.crashText, .crash(let report)): #expect(report.format == .text)
        case (.kscrash, .kscrash), (.hockeyApp, .hockeyApp), (.jetsam, .jetsam), (.diagnostic, .diagnostic), (.plcrash, .plcrash): break
        default: Issue.record("\(path) read as \(content)")
        }
        if expected.isCrash {
            #expect(try !document.crashReport().threads.isEmpty, "a crash format gives a report to symbolicate")
        }
    }

    static let shared: [(String, CrashReportDocument.Format)] = [
        ("crash/idb/xctest-concated-json-crash.ips", .ips), ("crash/acrp/spaces.txt", .crashText),
        ("crash/kscrash/NSException.json", .kscrash), ("crash/kscrash/NSException.txt", .crashText),
        ("crash/kscrash/StackOverflow.json", .kscrash),
    ]

    @Test(.enabled(if: SharedFixtures.available), arguments: shared.map(\.0))
    func realReportsFromTheWildAreToldByFormat(_ path: String) throws {
        let expected = try #require(Self.shared.first { $0.0 == path }?.1)
        let document = try CrashReportDocument(bytes: [UInt8](try SharedFixtures.data(path)))
        #expect(document.format == expected, "\(document.evidence)")
        #expect(try !document.crashReport().threads.isEmpty)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func aKSCrashArrayIsABatchSplitIntoItsReports() throws {
        let reports = try ["NSException", "Abort"].map { [UInt8](try SharedFixtures.data("crash/kscrash/\($0).json")) }
        let array = Array("[\n".utf8) + reports[0] + Array(",".utf8) + reports[1] + Array("]\n".utf8)
        let document = try CrashReportDocument(bytes: array)
        #expect(document.format == .kscrashBatch)
        #expect(document.evidence == "a JSON array of KSCrash reports")
        guard case .kscrashBatch(let ranges) = try document.read() else { Issue.record("not read as a batch"); return }
        #expect(ranges.map { Array(array[$0]) } == reports.map { Array($0.drop { $0 != UInt8(ascii: "{") }) }.map(Self.trimmed))
        #expect(throws: CrashReportDocumentError.notACrash(.kscrashBatch)) { try document.crashReport() }
    }

    @Test func aHockeySDKUploadGivesItsFirstCrash() throws {
        let document = try CrashReportDocument(bytes: [UInt8](try LocalFixtures.data("inspect/hockeyapp/crash-upload.xml")))
        guard case .hockeyApp(let upload) = try document.read() else { Issue.record("not read as HockeySDK"); return }
        let first = try #require(upload.crashes.first)
        #expect(try document.crashReport() == first.report())
    }

    @Test func reportsWithoutACrashSayWhatToDoInstead() throws {
        let jetsam = try CrashReportDocument(bytes: [UInt8](try LocalFixtures.data("inspect/ips/JetsamEvent-2024-05-06-101112.ips")))
        #expect(throws: CrashReportDocumentError.notACrash(.jetsam)) { try jetsam.crashReport() }
        #expect(CrashReportDocumentError.notACrash(.jetsam).description.contains("betactl inspect"))
        let plcrash = try CrashReportDocument(bytes: [UInt8](try LocalFixtures.data("inspect/plcrash/App.plcrash")))
        #expect(throws: CrashReportDocumentError.plcrash) { try plcrash.crashReport() }
        #expect(CrashReportDocumentError.plcrash.description.contains("text rendering"))
    }

    @Test func anythingElseIsRefusedNamingWhatItLooksLikeAndWhatWasExpected() {
        let inputs: [([UInt8], String)] = [
            ([], "an empty file"), (Array("just some notes\n".utf8), "text starting with \"just some notes\""),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "a JPEG image"), (Array(#"{"data":[]}"#.utf8), "a JSON object that is no report betactl knows"),
            (Array(#"[{"a":1}]"#.utf8), "text starting with \"[{"), (Array("<html><body/></html>".utf8), "root element is <html>"),
        ]
        for (bytes, looksLike) in inputs {
            do {
                let document = try CrashReportDocument(bytes: bytes)
                Issue.record("\(looksLike) was taken as \(document.format)")
            } catch {
                guard case .unrecognized(let evidence) = error else { Issue.record("\(error)"); continue }
                #expect(evidence.contains(looksLike), "\(evidence)")
                #expect(error.description.hasPrefix("it is not a crash report betactl reads: it looks like "))
                #expect(error.description.hasSuffix("expected an Apple .ips or .crash report, a KSCrash or SentryCrash JSON report, or a HockeySDK crash upload"))
            }
        }
    }

    @Test func aDamagedReportOfAKnownFormatIsRecognisedAndItsReaderNamesTheDamage() throws {
        let kscrash = [UInt8](try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json"))
        let cut = try CrashReportDocument(bytes: Array(kscrash.prefix(kscrash.count / 2)))
        #expect(cut.format == .kscrash)
        #expect {
            try cut.read()
        } throws: { error in
            guard case .kscrash = error as? CrashReportDocumentError else { return false }
            return "\(error)".hasPrefix("the KSCrash report cannot be read: ")
        }
    }

    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 0, bytes[end - 1].isXMLWhitespace { end -= 1 }
        return Array(bytes[..<end])
    }
}
