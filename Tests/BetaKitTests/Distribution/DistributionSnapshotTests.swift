import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite struct DistributionSnapshotTests {
    static func app(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }

    /// A home with two testers and two releases of the fixture app (its profile provisions …A01).
    func make() throws -> (RosterFixture, Tester, Tester) {
        let fixture = try RosterFixture()
        let ann = try fixture.roster.addTester(NewTester(name: "Ann", groups: ["qa"], devices: [
            NewDevice(identifier: try DeviceIdentifier("00008030-0000000000000A01"), family: .iphone, model: "iPhone15,2"),
            NewDevice(identifier: try DeviceIdentifier("00008030-0000000000000A09"), family: .iphone),
        ]), now: at("2026-11-01"))
        let bo = try fixture.roster.addTester(NewTester(name: "Bo", groups: ["design"]), now: at("2026-11-01"))
        let archive = Archive(home: fixture.home)
        _ = try archive.release(ReleaseRequest(path: Self.app("Beta.ipa"), dsymPaths: [Self.app("Beta.app.dSYM.zip"), Self.app("BetaWidget.appex.dSYM.zip")]),
                                devices: [], now: at("2026-11-02"))
        _ = try archive.release(ReleaseRequest(path: Self.app("Beta.xcarchive.zip"), groups: ["qa"]), devices: [], now: at("2026-11-03"))
        return (fixture, ann, bo)
    }

    @Test func testersAreFoundByTheirTokensDigestOnly() throws {
        let (fixture, ann, _) = try make()
        let snapshot = try DistributionSnapshot.load(from: fixture.home)
        #expect(snapshot.tester(token: ann.token)?.id == ann.id)
        #expect(snapshot.tester(token: String(ann.token.dropLast())) == nil)
        #expect(snapshot.tester(token: ann.token + "x") == nil)
        #expect(snapshot.tester(token: "") == nil)
        #expect(snapshot.tester(token: "../../etc/passwd") == nil)
        let stored = try fixture.home.store.read { db in try db.queryOne("SELECT token_digest FROM testers WHERE id = ?", [.integer(ann.id)])?.string(0) }
        #expect(stored == SHA256.hash(Array(ann.token.utf8)).hex)
        _ = try fixture.roster.removeTester(String(ann.id), now: at("2026-11-05"))
        #expect(try DistributionSnapshot.load(from: fixture.home).tester(token: ann.token) == nil, "a removed tester's link stops working")
    }

    @Test func releasesAreOfferedByGroupNewestFirstAndRevokedOnesDrop() throws {
        let (fixture, ann, bo) = try make()
        var snapshot = try DistributionSnapshot.load(from: fixture.home)
        #expect(snapshot.releases(offeredTo: ann).map(\.id) == [2, 1])
        #expect(snapshot.releases(offeredTo: bo).map(\.id) == [1])
        _ = try Archive(home: fixture.home).revoke(id: 2, now: at("2026-11-04"))
        snapshot = try DistributionSnapshot.load(from: fixture.home)
        #expect(snapshot.releases(offeredTo: ann).map(\.id) == [1])
        #expect(snapshot.release(id: 2)?.revokedAt != nil)
        #expect(snapshot.packageSizes[1] == Int64(try Data(contentsOf: URL(fileURLWithPath: Self.app("Beta.ipa"))).count))
    }

    @Test func eachReleaseRecordsTheDevicesItsProfileProvisions() throws {
        let (fixture, ann, _) = try make()
        let snapshot = try DistributionSnapshot.load(from: fixture.home)
        let coverage = try #require(snapshot.coverage[1])
        #expect(coverage.isKnown && !coverage.allDevices)
        #expect(coverage.udids == ["00008030-0000000000000A01", "00008101-0000000000000B02", "0000000000000000000000000000000000000c03"])
        let devices = snapshot.devices(of: ann)
        #expect(devices.map { coverage.includes($0.identifier) } == [true, false])
    }

    @Test func releasesPublishedBeforeCoverageWasRecordedGetItFromTheirPackage() throws {
        let (fixture, _, _) = try make()
        // As a home upgraded from a betactl that did not record profile devices looks.
        try fixture.home.store.write { db -> Void in
            try db.query("DELETE FROM release_devices")
            try db.query("UPDATE releases SET profile_devices_recorded = 0")
        }
        #expect(try DistributionSnapshot.load(from: fixture.home).coverage[1]?.includes(try DeviceIdentifier("00008030-0000000000000A01")) == nil)
        #expect(try Archive(home: fixture.home).recordMissingProfileDevices() == 2)
        let coverage = try DistributionSnapshot.load(from: fixture.home).coverage
        #expect(coverage[1]?.udids.count == 3 && coverage[2]?.udids.count == 3)
        #expect(try Archive(home: fixture.home).recordMissingProfileDevices() == 0)
    }

    @Test func theMigrationGivesExistingTestersTheirDigests() throws {
        let (fixture, ann, bo) = try make()
        try fixture.home.store.write { db -> Void in try db.query("UPDATE testers SET token_digest = NULL") }
        try fixture.home.store.write { db -> Void in try Schema.distribution.backfill?(db) }
        let snapshot = try DistributionSnapshot.load(from: fixture.home)
        #expect(snapshot.tester(token: ann.token)?.id == ann.id)
        #expect(snapshot.tester(token: bo.token)?.id == bo.id)
    }

    @Test func downloadsAreListedWithTesterAndDevice() throws {
        let (fixture, ann, _) = try make()
        let archive = Archive(home: fixture.home)
        try archive.recordDownload(releaseID: 1, testerID: ann.id, udid: "00008030-0000000000000A01", userAgent: "appstored", at: at("2026-11-05T10:00:00Z"))
        try archive.recordDownload(releaseID: 1, testerID: nil, udid: nil, userAgent: nil, at: at("2026-11-05T09:00:00Z"))
        let downloads = try archive.downloads(ofRelease: 1)
        #expect(downloads.map(\.testerName) == [nil, "Ann"])
        #expect(downloads.last?.udid == "00008030-0000000000000A01")
        #expect(try archive.downloads(ofRelease: 2).isEmpty)
    }
}
