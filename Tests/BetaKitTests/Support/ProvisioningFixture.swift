import AppleFormats
import Foundation
import HTTPClient
import TestSupport
@testable import BetaKit

/// A home ready for automatic provisioning against the test App Store Connect server: connected,
/// the fixture app (with its widget) released to everyone, the server's distribution identity
/// imported as the code-signing identity, the approval rule `all`, `apple auto on` with a zero
/// window, one tester, and a webhook endpoint so events are recorded.
struct ProvisioningFixture {
    let apple: AppleFixture
    let tester: Tester
    let original: Release
    var home: Home { apple.home }
    var server: AppStoreConnectServer { apple.server }
    var queue: JobQueue { JobQueue(home: home) }

    static let bundleIDs = ["com.example.beta", "com.example.beta.widget"]
    /// The capabilities the fixture app's App IDs have enabled: what its entitlements need.
    static var capabilities: [String: Any] { [
        "aps-environment": "production", "com.apple.developer.associated-domains": "*",
        "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
        "com.apple.security.application-groups": ["group.com.example.beta"],
    ] }

    init(scenario: [String: Any] = [:], window: Int = 0) throws {
        var full: [String: Any] = ["generate_devices": 3, "bundle_ids": Self.bundleIDs, "entitlements": Self.capabilities]
        full.merge(scenario) { $1 }
        apple = try AppleFixture(scenario: full)
        let home = apple.home
        let app = { (name: String) in LocalFixtures.url("formats/app/\(name)").path }
        original = try Archive(home: home).release(ReleaseRequest(path: app("Beta.ipa"), dsymPaths: [app("Beta.app.dSYM.zip"), app("BetaWidget.appex.dSYM.zip")]),
                                                   devices: [], now: Date()).release
        try Self.importIdentity(server: apple.server, home: home)
        try DeviceRequests(home: home).setRule(.all, now: Date())
        try AutoProvisioning(home: home).turnOn(window: window)
        tester = try Roster(home: home).addTester(NewTester(name: "Ann Lee"), now: Date())
        _ = try Webhooks(home: home).add(url: "http://127.0.0.1:9/hook", events: [], format: .standard, allowPrivate: true, now: Date())
    }

    /// Imports the test server's first distribution certificate and key as the code-signing identity.
    static func importIdentity(server: AppStoreConnectServer, home: Home) throws {
        let pem = server.directory.child("state/dist0.pem")
        let der = server.directory.child("dist0.der")
        let converted = try runToolNow("openssl", ["x509", "-in", pem, "-outform", "DER", "-out", der])
        guard converted.status == 0 else { throw ResigningFixtures.ToolFailure(message: converted.error) }
        _ = try CodeIdentityStore(home: home).save(
            certificatePEM: try String(contentsOfFile: pem, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: server.directory.child("state/dist0.key"), encoding: .utf8),
            certificateDER: [UInt8](try Data(contentsOf: URL(fileURLWithPath: der))), chainCount: 1, now: Date())
    }

    /// `00008120-` and sixteen hex digits of `number`.
    static func udid(_ number: Int) -> String {
        let tail = String(number, radix: 16, uppercase: true)
        return "00008120-" + String(repeating: "0", count: 16 - tail.count) + tail
    }

    /// An open request from the tester for `udid`, approved by the admin (which queues its job).
    func enrolAndApprove(_ udid: String) throws {
        try home.store.write { db in
            try db.query("INSERT INTO device_requests (udid, tester_id, family, product, requested_at) VALUES (?, ?, 'iphone', 'iPhone15,2', ?)",
                         [.text(udid), .integer(tester.id), .text(Timestamp.string(Date()))])
        }
        _ = try DeviceRequests(home: home).approve(try DeviceIdentifier(udid), now: Date())
    }

    /// A provisioner whose client does not retry by itself (the queue's retries are under test).
    var provisioner: Provisioner { Provisioner(home: home, retry: .none) }

    /// Calls to the server that change something, as "METHOD PATH" without the query.
    func changingCalls() throws -> [String] {
        try server.calls().filter { $0.method != "GET" && $0.status < 300 }.map { "\($0.method) \($0.path.prefix { $0 != "?" })" }
    }

    /// The webhook events of one type recorded so far, payloads as text.
    func events(_ type: WebhookEvent) throws -> [String] {
        try home.store.read { db in
            try db.query("SELECT payload FROM webhook_events WHERE type = ? ORDER BY id", [.text(type.rawValue)]).compactMap { $0.string(0) }
        }
    }
}
