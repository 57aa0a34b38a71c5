import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AppleSyncTests {
    /// 450 devices at Apple (90 per class, 9 disabled iPhones); the roster has one enabled and one
    /// disabled of them (in another case) and one Apple lacks.
    func make() throws -> AppleFixture {
        let fixture = try AppleFixture(scenario: ["generate_devices": 450])
        _ = try fixture.roster.roster.addTester(NewTester(name: "Ann Lee", devices: [
            NewDevice(identifier: AppleFixture.generated(0), family: .iphone, model: "iPhone15,2"),
            NewDevice(identifier: AppleFixture.generated(45), family: .iphone),
            NewDevice(identifier: try DeviceIdentifier("00008030-0000000000000A01"), family: .iphone),
        ]), now: Date())
        return fixture
    }

    @Test func syncReadsAll450DevicesInThreePagesAndReconcilesTheRoster() throws {
        let fixture = try make()
        let client = try fixture.client()
        let result = try fixture.account.sync(client: client, now: Date())

        let calls = try fixture.server.calls()
        #expect(calls.map(\.path) == ["/v1/devices?limit=200", "/v1/devices?cursor=200&limit=200", "/v1/devices?cursor=400&limit=200"],
                "the minimum: one page of 200 at a time, following links.next")
        #expect(try fixture.server.problems() == [])

        #expect(result.appleDevices == 450)
        #expect(result.appleDisabled == 9)
        #expect(result.imported.count == 448, "every Apple device the roster lacked")
        #expect(result.registered == 441)
        #expect(result.disabled == 1, "Ann's disabled iPhone is shown as disabled")
        #expect(result.pending == 1, "Ann's device Apple does not have")

        let states = try fixture.account.deviceStates()
        #expect(states[AppleFixture.generated(0).value] == .registered)
        #expect(states[AppleFixture.generated(45).value] == .disabled)
        #expect(states["00008030-0000000000000A01"] == .notRegistered)

        let imported = try fixture.roster.roster.devices().first { $0.identifier == AppleFixture.generated(1) }
        #expect(imported?.name == "Generated 1")
        #expect(imported?.family == .ipad, "class IPAD")
        #expect(imported?.testerID == nil)
        #expect(imported?.status == .active)
        let disabledImport = try fixture.roster.roster.devices().first { $0.identifier == AppleFixture.generated(95) }
        #expect(disabledImport?.status == .removed, "a disabled device Apple has is imported as removed")
    }

    @Test func theSlotLedgerFollowsApplesCountAndSaysWhyTheRosterDiffers() throws {
        let fixture = try make()
        let result = try fixture.account.sync(client: try fixture.client(), now: Date())
        let iphone = try #require(result.ledger.first { $0.family == .iphone })
        // Apple counts its 81 enabled iPhones and the disabled ones added since the membership year
        // began 265 days ago: 8 of the 9 (the one added 295 days ago is from the year before).
        #expect(iphone.apple == 89)
        #expect(iphone.onlyInRoster == 1)
        #expect(iphone.explanation?.contains("1 in the roster is not registered at Apple") == true)
        let ipad = try #require(result.ledger.first { $0.family == .ipad })
        #expect(ipad.apple == ipad.roster)
        #expect(ipad.explanation == nil, "families that agree say nothing")
    }

    @Test func aSecondSyncImportsNothingAgain() throws {
        let fixture = try make()
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        let again = try fixture.account.sync(client: try fixture.client(), now: Date())
        #expect(again.imported.isEmpty)
        #expect(again.appleDevices == 450)
        #expect(try fixture.roster.roster.devices().count == 451)
    }

    @Test func aServerErrorInTheMiddleOfThePagesIsRetried() throws {
        let fixture = try AppleFixture(scenario: ["generate_devices": 250, "unavailable_on_call": 2])
        let result = try fixture.account.sync(client: try fixture.client(), now: Date())
        #expect(result.appleDevices == 250)
        #expect(try fixture.server.calls().map(\.status) == [200, 503, 200])
        #expect(try fixture.server.problems() == [])
    }
}
