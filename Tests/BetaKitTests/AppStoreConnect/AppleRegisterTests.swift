import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AppleRegisterTests {
    static let ann1 = try! DeviceIdentifier("00008030-0000000000000A01")
    static let ann2 = try! DeviceIdentifier("00008030-0000000000000A02")
    static let twin = try! DeviceIdentifier("00008030-0000000000000A09")

    /// Ann's three iPhones; Apple already has the third, written in lower case, and the list was synced before it was added there.
    func make(scenario: [String: Any] = [:]) throws -> AppleFixture {
        let fixture = try AppleFixture(scenario: scenario)
        _ = try fixture.roster.roster.addTester(NewTester(name: "Ann Lee", devices: [
            NewDevice(identifier: Self.ann1, family: .iphone, model: "iPhone15,2"),
            NewDevice(identifier: Self.ann2, family: .iphone),
            NewDevice(identifier: Self.twin, family: .iphone),
        ]), now: Date())
        return fixture
    }

    @Test func registersApprovedDevicesNamedAfterTheirTesterAndCountsApples409AsSuccess() throws {
        let fixture = try make(scenario: ["devices": [["udid": "00008030-0000000000000a09", "name": "Ann's old name", "deviceClass": "IPHONE"]]])
        // The local list is read first, then Apple's copy of the twin is "forgotten" as if it had
        // been registered in the portal since: only Apple's 409 can say it exists.
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        try fixture.home.store.write { db in try db.query("DELETE FROM apple_devices") }
        let approved = try fixture.account.approvedUnregistered().map(\.identifier)
        #expect(Set(approved) == [Self.ann1, Self.ann2, Self.twin])

        let before = try fixture.server.calls().count
        let result = try fixture.account.register(approved, client: try fixture.client(), now: Date())
        #expect(result.count(.registered) == 2)
        #expect(result.count(.alreadyRegistered) == 1)
        #expect(result.outcomes.first { $0.udid == Self.ann1 }?.name == "Ann Lee iPhone 14 Pro", "tester name and model")
        #expect(result.outcomes.first { $0.udid == Self.twin }?.kind == .alreadyRegistered)

        let calls = try fixture.server.calls().dropFirst(before)
        #expect(calls.map { "\($0.method) \($0.status)" } == ["POST 201", "POST 201", "POST 409", "GET 200"], "one re-sync after the 409")
        #expect(try fixture.server.problems() == [])
        #expect(try fixture.account.approvedUnregistered().isEmpty, "the re-sync learnt the twin's id")
        #expect(try fixture.account.status(now: Date()).registered == 3)
    }

    @Test func aFullFamilyIsRefusedLocallyWithTheRenewalDateBeforeAnyCall() throws {
        // 500 generated devices: 100 of each class, the iPads all enabled.
        let fixture = try make(scenario: ["generate_devices": 500])
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        let ipad = try DeviceIdentifier("00008030-00000000000000B1")
        _ = try fixture.roster.roster.addTester(NewTester(name: "Bo", devices: []), now: Date())
        try fixture.home.store.write { db in
            try db.query("INSERT INTO devices (udid, tester_id, name, family, added_at) VALUES (?, NULL, 'Bo iPad', 'ipad', ?)",
                         [.text(ipad.value), .text(Timestamp.string(Date()))])
        }
        let before = try fixture.server.calls().count
        let result = try fixture.account.register([ipad], client: try fixture.client(), now: Date())
        #expect(try fixture.server.calls().count == before, "refused before calling Apple")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome.kind == .refused)
        let renews = fixture.home.settings.membershipYear(at: Date()).renews
        #expect(outcome.reason?.contains("all 100 of 100 iPad slots") == true)
        #expect(outcome.reason?.contains("renews on \(renews)") == true)
    }

    @Test func applesYearlyLimit403IsTheSameRefusalAsTheLocalOne() throws {
        let fixture = try make(scenario: ["generate_devices": 500])
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        // A stale local list: Apple has more iPhones than betactl last saw.
        try fixture.home.store.write { db in
            try db.query("DELETE FROM apple_devices WHERE apple_id IN (SELECT apple_id FROM apple_devices WHERE device_class = 'IPHONE' LIMIT 5)")
        }
        let result = try fixture.account.register([Self.ann1], client: try fixture.client(), now: Date())
        let outcome = try #require(result.outcomes.first)
        #expect(outcome.kind == .refused)
        #expect(outcome.reason?.contains("all 100 of 100 iPhone slots") == true)
        #expect(try fixture.server.calls().last?.status == 403)
        #expect(try fixture.server.problems() == [])
    }

    @Test func a429InTheMiddleIsWaitedOutAsRetryAfterSays() throws {
        // Call 1 reads the (empty) list, 2 registers Ann's first, 3 is refused with 429 and Retry-After: 1.
        let fixture = try make(scenario: ["rate_limit_on_call": 3])
        let result = try fixture.account.register([Self.ann1, Self.ann2, Self.twin], client: try fixture.client(), now: Date())
        #expect(result.count(.registered) == 3)
        let calls = try fixture.server.calls()
        #expect(calls.map(\.status) == [200, 201, 429, 201, 201])
        #expect(calls[2].path == calls[3].path && calls[3].method == "POST", "the refused request was sent again")
        #expect(try fixture.server.problems() == [])
        let log = try String(contentsOfFile: AppleCallLog.path(home: fixture.home), encoding: .utf8)
        #expect(log.contains("POST /v1/devices 429 request-id="))
        #expect(log.contains("(attempt 2)"))
    }

    @Test func aDeviceOutsideTheRosterIsRefusedWithTheFix() throws {
        let fixture = try make()
        let stranger = try DeviceIdentifier("00008030-00000000000000FF")
        #expect(throws: AppStoreConnectError.unknownDevice(stranger.value)) {
            _ = try fixture.account.register([stranger], client: try fixture.client(), now: Date())
        }
    }
}
