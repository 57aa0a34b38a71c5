import AppleFormats
import Foundation
import Testing
@testable import BetaKit

@Suite struct ProfileRosterCheckTests {
    @Test func listsMissingDevicesByTesterRemovedAndUnknownOnes() throws {
        let profile = try FormatsFixtures.profile("beta_adhoc")
        let devices = [
            try FormatsFixtures.device(FormatsFixtures.profileDevices[0], tester: "Ann"),
            try FormatsFixtures.device(FormatsFixtures.profileDevices[1], tester: "Ann", removed: true),
            try FormatsFixtures.device("00008110-0000000000000D04", tester: "Bob"),
            try FormatsFixtures.device("00008110-0000000000000E05", tester: "Bob", removed: true),
        ]
        let report = ProfileRosterCheck.check(profile: profile, devices: devices, now: FormatsFixtures.now)
        #expect(report.missingActiveDevices.map(\.identifier.value) == ["00008110-0000000000000D04"])
        #expect(report.removedDevices.map(\.identifier.value) == ["00008101-0000000000000B02"])
        #expect(report.unknownDevices.map(\.value) == ["0000000000000000000000000000000000000c03"])
        #expect(!report.hasErrors)
        #expect(report.findings.map(\.description) == [
            "warning: Bob cannot install builds signed with this profile: 00008110-0000000000000D04 is not in it; regenerate the profile with every registered device",
            "warning: the profile still includes 1 device removed from the roster: 00008101-0000000000000B02",
            "warning: the profile includes 1 device the roster does not know: 0000000000000000000000000000000000000c03; import them with import-devices or ignore",
        ])
    }

    @Test func errorsOnceExpiredAndWarnsWithinFourteenDays() throws {
        let expired = try FormatsFixtures.profile("beta_expired")
        let report = ProfileRosterCheck.check(profile: expired, devices: [], now: FormatsFixtures.now)
        #expect(report.hasErrors)
        #expect(report.findings.first?.description == "error: the profile \"Beta Ad Hoc (expired)\" expired on 2020-01-01; regenerate it in the Apple Developer portal and import it again")
        let valid = try FormatsFixtures.profile("beta_adhoc")
        let soon = valid.expirationDate.addingTimeInterval(-3 * 86400 - 60)
        let warning = ProfileRosterCheck.check(profile: valid, devices: [], now: soon)
        #expect(!warning.hasErrors)
        #expect(warning.findings.map(\.description).contains("warning: the profile \"Beta Ad Hoc\" expires in 3 days (2099-01-01); regenerate it before then"))
        #expect(ProfileRosterCheck.check(profile: valid, devices: [], now: valid.expirationDate.addingTimeInterval(-20 * 86400)).findings.filter { $0.message.contains("expires in") }.isEmpty)
    }

    @Test func warnsAboutExpiringCertificatesAndSkipsDeviceChecksForEnterprise() throws {
        let enterprise = try FormatsFixtures.profile("beta_enterprise")
        let certificate = try #require(enterprise.developerCertificates.first)
        let report = ProfileRosterCheck.check(profile: enterprise, devices: [try FormatsFixtures.device("00008110-0000000000000D04", tester: "Bob")],
                                              now: certificate.notAfter.addingTimeInterval(-86400 * 5 - 10))
        #expect(report.missingActiveDevices.isEmpty)
        #expect(report.expiringCertificates.count == 1)
        #expect(report.findings.contains { $0.message.hasPrefix("the certificate \"iPhone Distribution: Beta Fixtures (ABCDE12345)\" (serial 5EED1234ABCD) expires in 5 days") })
    }
}
