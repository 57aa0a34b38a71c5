import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// A device a tester registered from the device itself stays pending until an ad hoc profile
/// betactl sees (imported, or inside a released build) includes it.
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct PendingDeviceTests {
    /// Every generated profile in Tests/Fixtures/formats/profiles includes this device.
    static let inProfiles = FormatsFixtures.profileDevices[0]

    func enrolled(_ udid: String = inProfiles) async throws -> RosterFixture {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann Lee")
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let result = try enrollment.receive(try await replies.reply(udid: udid, challenge: challenge), testerID: ann.id, now: at("2026-11-10"))
        #expect(result.outcome == .requested)
        #expect(try f.roster.pendingDevices().isEmpty, "a request is not registered yet")
        // Approved, it is registered here and pending until a profile includes it.
        _ = try DeviceRequests(home: f.home).approve(try DeviceIdentifier(udid), now: at("2026-11-10"))
        return f
    }

    func importProfile(_ name: String, into f: RosterFixture) throws {
        _ = try Archive(home: f.home).importProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/\(name).mobileprovision")),
                                                    now: at("2026-11-11"))
    }

    @Test func anImportedAdHocProfileThatIncludesTheDeviceEndsPending() async throws {
        let f = try await enrolled()
        #expect(try f.roster.pendingDevices().count == 1)
        try importProfile("beta_development", into: f)
        #expect(try f.roster.pendingDevices().count == 1, "a development profile is not the ad hoc one builds are signed with")
        try importProfile("beta_adhoc", into: f)
        #expect(try f.roster.pendingDevices().isEmpty)
        #expect(try f.roster.devices().first?.isPending == false)
    }

    @Test func aProfileWithoutTheDeviceLeavesItPendingAndCheckProfileSaysSo() async throws {
        let f = try await enrolled("00008120-0000000000000077")
        try importProfile("beta_adhoc", into: f)
        let pending = try f.roster.pendingDevices()
        #expect(pending.map(\.identifier.value) == ["00008120-0000000000000077"])
        let report = ProfileRosterCheck.check(profile: try FormatsFixtures.profile("beta_adhoc"), devices: try f.roster.devices(),
                                              now: FormatsFixtures.now)
        #expect(report.pendingDevices.map(\.identifier.value) == ["00008120-0000000000000077"])
        #expect(report.findings.contains { $0.message.hasPrefix("1 device registered from a tester's device is pending, in no ad hoc profile yet: Ann Lee: Ann's iPhone (00008120-0000000000000077)") && $0.message.contains("export-devices --pending") })
    }

    @Test func removedDevicesAreNeverPending() async throws {
        let f = try await enrolled()
        _ = try f.roster.removeDevice(try DeviceIdentifier(Self.inProfiles), now: at("2026-11-12"))
        #expect(try f.roster.pendingDevices().isEmpty)
        #expect(try f.roster.devices().first?.isPending == false)
    }

    @Test func profilesImportedBeforeTheLedgerExistedAreReadBackFromTheArchive() async throws {
        let f = try await enrolled()
        try importProfile("beta_adhoc", into: f)
        // As a database from before schema 6 would be: profiles imported, their devices not recorded.
        try f.home.store.write { db in try db.query("DELETE FROM profile_devices") }
        #expect(try f.roster.pendingDevices().count == 1)
        try f.home.store.write { db in try Schema.enrollment.backfill?(db) }
        #expect(try f.roster.pendingDevices().isEmpty)
        let recorded = try f.home.store.read { db in try db.query("SELECT udid FROM profile_devices ORDER BY udid").compactMap { $0.string(0) } }
        #expect(recorded == FormatsFixtures.profileDevices.sorted())
    }
}
