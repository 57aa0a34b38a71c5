import AppleFormats
import Foundation
import Testing
import TestSupport

@Suite struct CrashReportIdentityTests {
    static func identity(_ text: String) -> String? { CrashReportIdentity.of(Array(text.utf8)) }

    @Test func anIPSReportIsKnownByItsHeadersIncidentWhateverFollowsIt() throws {
        let ips = [UInt8](try LocalFixtures.data("symbols/crashes/App-309.ips"))
        #expect(CrashReportIdentity.of(ips) == "crash:" + CrashIncidents.app)
        #expect(CrashReportIdentity.of(ips + Array("\r\n".utf8)) == "crash:" + CrashIncidents.app)
        #expect(CrashReportIdentity.of([0xEF, 0xBB, 0xBF] + Array("\r\n".utf8) + ips) == "crash:" + CrashIncidents.app)
        #expect(CrashReportIdentity.of([UInt8](try LocalFixtures.data("inspect/ips/JetsamEvent-2024-05-06-101112.ips"))) == "ips-298:" + CrashIncidents.inspect)
        #expect(CrashReportIdentity.of([UInt8](try LocalFixtures.data("inspect/ips/App.cpu_resource-2024-05-06-101112.ips"))) == "ips-202:" + CrashIncidents.inspect,
                "incidents are unique within a kind of report")
        // A header-less body names it `incident`; nested keys of the same name are not it.
        #expect(Self.identity(#"{"procName": "App", "incident": "ab-12"}"#) == "crash:" + "AB-12")
        #expect(Self.identity(#"{"x": {"incident_id": "NESTED"}, "y": ["incident", 1]}"#) == nil)
        #expect(Self.identity(#"{"bug_type": 309, "note": "\"incident_id\": \"NO\"", "incident_id": "E0A1"}"#) == "crash:" + "E0A1")
    }

    @Test func aTextReportIsKnownByItsIncidentIdentifierLine() throws {
        let text = [UInt8](try LocalFixtures.data("symbols/crashes/App-legacy.crash"))
        #expect(CrashReportIdentity.of(text) == "crash:" + CrashIncidents.app)
        // HockeySDK's logs start with their own lines.
        #expect(Self.identity("Package: com.example.app\nVersion: 42\n\nIncident Identifier:  4b1f2e3d-aaaa\r\nProcess: App\n") == "crash:" + "4B1F2E3D-AAAA")
        #expect(Self.identity("Process: App\nNote: Incident Identifier: X\n") == nil, "only at the start of a line")
    }

    @Test(.enabled(if: SharedFixtures.available)) func aKSCrashReportIsKnownByItsReportIDLikeItsTextRendering() throws {
        let json = [UInt8](try SharedFixtures.data("crash/kscrash/Abort.json"))
        let text = [UInt8](try SharedFixtures.data("crash/kscrash/Abort.txt"))
        #expect(CrashReportIdentity.of(json) == "crash:" + "CC97F21E-A2E1-49E8-9D6A-487E950A261A")
        #expect(CrashReportIdentity.of(text) == CrashReportIdentity.of(json))
        #expect(Self.identity(#"{"crash": {"id": "NOT"}, "report": {"version": {"id": "NOR"}, "id": "K1"}}"#) == "crash:" + "K1")
    }

    @Test func valuesThatAreNoIdentifierAreNoIdentity() {
        #expect(Self.identity(#"{"incident_id": ""}"#) == nil)
        #expect(Self.identity(#"{"incident_id": "has space"}"#) == nil)
        #expect(Self.identity(#"{"incident_id": "esc\u001B[2J"}"#) == nil)
        #expect(Self.identity("{\"incident_id\": \"\(String(repeating: "A", count: 129))\"}") == nil)
        #expect(Self.identity(#"{"incident_id": 12}"#) == nil)
        #expect(Self.identity(#"{"bug_type": "298", "incident_id": "a b", "incident": "C"}"#) == "ips-298:C", "the first that is an identifier")
        #expect(Self.identity("Incident Identifier: \n") == nil)
        #expect(Self.identity("") == nil)
        #expect(Self.identity(#"{"incident_id": "unterminated"#) == nil)
        #expect(Self.identity(String(repeating: "[", count: 100_000)) == nil)
    }
}
