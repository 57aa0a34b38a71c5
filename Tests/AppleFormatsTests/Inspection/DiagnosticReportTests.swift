import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// `.ips` reports other than crashes, in the shape of real ones (Tests/Fixtures/inspect/ips).
@Suite struct DiagnosticReportTests {
    static func file(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/ips/\(name)")) }

    @Test func readsAJetsamReportWithPageSizeLargestProcessAndKills() throws {
        let report = try JetsamReport(bytes: try Self.file("JetsamEvent-2024-05-06-101112.ips"))
        #expect(report.header?.bugType == "298")
        #expect(report.osVersion == "iPhone OS 17.4.1 (21E236)")
        #expect(report.hardwareModel == "iPhone14,5")
        #expect(report.pageSize == 16384)
        #expect(report.largestProcess == "App")
        #expect(report.memoryPages["free"] == 2000)
        #expect(report.processes.count == 5)
        #expect(report.processesBySize.map(\.name) == ["App", "MobileSafari", "Mail", "SpringBoard", "mediaserverd"],
                "largest first; equal sizes keep report order")
        #expect(report.killedProcesses.map(\.name) == ["App", "MobileSafari"])
        let app = try #require(report.processes.first { $0.name == "App" })
        #expect(app.reason == "per-process-limit")
        #expect(app.states == ["frontmost", "resume"])
        #expect(app.uuid == UUID(uuidString: "4c4c440b-5555-3144-a184-68d7aacd7c75"))
        #expect(report.bytes(ofPages: app.residentPages) == 120000 * 16384)
    }

    @Test func readsTheOlderLayoutWithAPageSizeAtTheTop() throws {
        let report = try JetsamReport(bytes: try Self.file("JetsamEvent-2019-08-01-090000.ips"))
        #expect(report.pageSize == 16384)
        #expect(report.osVersion == "iPhone OS 12.4 (16G77)")
        #expect(report.largestProcess == "MobileSafari")
        #expect(report.killedProcesses.map(\.reason) == ["highwater"])
        #expect(report.memoryPages.isEmpty)
    }

    @Test(arguments: [
        ("App.cpu_resource-2024-05-06-101112.ips", "202", "cpu_resource", "json"),
        ("App.diskwrites_resource-2024-05-06-101112.ips", "145", "diskwrites_resource", "text"),
        ("App.wakeups_resource-2024-05-06-101112.ips", "142", "wakeups_resource", "text"),
        ("Stacks-2024-05-06-101112.ips", "288", "stackshot", "json"),
        ("panic-full-2024-05-06-101112.ips", "210", "panic", "json"),
        ("unknown-bugtype.ips", "4242", nil, "json"),
    ] as [(String, String, String?, String)])
    func namesTheBugTypeOfOtherReports(_ name: String, _ bugType: String, _ bugTypeName: String?, _ body: String) throws {
        let report = try DiagnosticReport(bytes: try Self.file(name))
        #expect(report.bugType == bugType)
        #expect(report.bugTypeName == bugTypeName)
        #expect(report.header.osVersion == "iPhone OS 17.4.1 (21E236)")
        switch report.body {
        case let .json(keys): #expect(body == "json" && !keys.isEmpty)
        case let .text(line): #expect(body == "text" && line.hasPrefix("Date/Time:"))
        case .empty: Issue.record("the body is missing")
        }
    }

    @Test func jetsamBodiesOfTheWrongShapeAreRefused() {
        func refuse(_ text: String, _ needle: String) {
            #expect {
                try JetsamReport(bytes: Array(text.utf8))
            } throws: { error in
                guard let error = error as? DiagnosticReportError, case let .damagedJetsam(detail) = error else { return false }
                return detail.contains(needle)
            }
        }
        refuse(#"{"bug_type":"298"}"# + "\n" + #"{"processes":[{"rpages":"many"}]}"#, "processes[0].rpages is not an integer")
        refuse(#"{"bug_type":"298"}"# + "\n" + #"{"largestProcess":"x"}"#, "processes is missing")
        refuse(#"{"bug_type":"309"}"# + "\n" + #"{"processes":[]}"#, "bug_type 309")
        refuse(#"{"pageSize":0,"processes":[]}"#, "pageSize is 0")
        refuse(#"{"processes":[{"uuid":"zz"}]}"#, "processes[0].uuid")
        #expect(throws: DiagnosticReportError.noHeader) { try DiagnosticReport(bytes: Array("plain text".utf8)) }
    }

    @Test(arguments: ["JetsamEvent-2024-05-06-101112.ips", "App.diskwrites_resource-2024-05-06-101112.ips", "Stacks-2024-05-06-101112.ips"])
    func damagedReportsGiveATypedErrorOrAConsistentReport(_ name: String) throws {
        var refused = 0
        for (label, bytes) in damagedVariants(of: try Self.file(name)) {
            do {
                let report = try DiagnosticReport(bytes: bytes)
                #expect(!report.bugType.isEmpty, "\(label)")
            } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(label)")
            }
            do {
                let jetsam = try JetsamReport(bytes: bytes)
                #expect(jetsam.processesBySize.count == jetsam.processes.count, "\(label)")
            } catch {
                #expect(!error.description.isEmpty, "\(label)")
            }
        }
        #expect(refused > 0)
    }
}
