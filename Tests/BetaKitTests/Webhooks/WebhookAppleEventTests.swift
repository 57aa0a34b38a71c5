import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// `device.registered` is queued in the transaction that records Apple's answer.
@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct WebhookAppleEventTests {
    @Test func eachDeviceAppleRegistersQueuesDeviceRegistered() throws {
        let fixture = try AppleFixture(scenario: [:])
        let phone = try DeviceIdentifier("00008030-0000000000000B01")
        _ = try fixture.roster.roster.addTester(NewTester(name: "Ann Lee", devices: [NewDevice(identifier: phone, family: .iphone, model: "iPhone15,2")]),
                                                now: Date())
        _ = try Webhooks(home: fixture.home).add(url: "http://127.0.0.1:9/hook", events: [.deviceRegistered], format: .standard,
                                                  allowPrivate: true, now: Date())
        let result = try fixture.account.register([phone], client: try fixture.client(), now: Date())
        #expect(result.count(.registered) == 1)
        let payloads = try fixture.home.store.read { db in
            try db.query("SELECT type, payload FROM webhook_events").map { ($0.string(0) ?? "", $0.string(1) ?? "") }
        }
        #expect(payloads.count == 1 && payloads.first?.0 == "device.registered")
        let payload = payloads.first?.1 ?? ""
        #expect(payload.contains("\"udid\":\"00008030-0000000000000B01\"") && payload.contains("\"name\":\"Ann Lee\"")
            && payload.contains("\"apple_device_id\":"), "\(payload)")
    }
}
