import Foundation
import Testing
import TestSupport

/// The overview shows Apple's state, and its one button registers the approved devices and
/// regenerates the profiles, against the same test App Store Connect server as the CLI and API.
@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AdminAppleTests {
    @Test func theOverviewsButtonRegistersApprovedDevicesAndRegeneratesTheProfile() async throws {
        let fixture = try await AdminFixture.make()
        let apple = try await blocking {
            try AppStoreConnectServer(scenario: ["generate_devices": 3, "bundle_ids": ["com.example.beta", "com.example.beta.widget"]])
        }
        let connect = try fixture.cli.run(["apple", "connect", "--key", apple.key.path, "--key-id", apple.key.id, "--issuer-id", apple.key.issuer,
                                           "--base-url", apple.baseURL, "--ca-file", apple.caFile])
        #expect(connect.status == 0, "\(connect.stderr)")
        #expect(try fixture.cli.run(["apple", "sync"]).status == 0)
        let pending = try #require((try cliJSON(fixture.cli, "apple", "status", "--json") as? [String: Any])?["pending"] as? Int)
        #expect(pending > 0)

        let server = try fixture.inProcess()
        defer { server.stop() }
        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readPage = try await reader.get("/admin")
        #expect(readPage.text.contains("<h2>App Store Connect</h2>"))
        #expect(readPage.text.contains("Key <code>ABC123DEFG</code>"))
        #expect(!readPage.text.contains("/admin/apple/provision"), "only an admin session gets the button")

        let admin = try DashboardClient(server)
        try await admin.logIn(fixture.admin)
        let page = try await admin.get("/admin")
        let devices = pending == 1 ? "1 approved device" : "\(pending) approved devices"
        #expect(page.text.contains("Register \(devices) and regenerate the ad hoc profile of com.example.beta"))
        let before = try apple.calls().count
        let posted = try await admin.post("/admin/apple/provision", form: [("csrf", try DashboardClient.csrf(page))])
        #expect(posted.status == 303)
        #expect(posted.headers["location"] == "/admin?notice=apple-provisioned")

        let calls = try apple.calls().dropFirst(before)
        #expect(calls.filter { $0.method == "POST" && $0.path == "/v1/devices" }.count == pending)
        #expect(calls.filter { $0.method == "POST" && $0.path == "/v1/profiles" }.count == 2, "the app and its widget")
        #expect(try apple.problems() == [])
        let after = try await admin.get("/admin?notice=apple-provisioned")
        #expect(after.text.contains("The approved devices are registered at Apple and the ad hoc profiles were regenerated and imported."))
        #expect(try fixture.cli.ok("profiles").contains("betactl com.example.beta "))

        let withoutToken = try await admin.post("/admin/apple/provision", form: [("csrf", "wrong")])
        #expect(withoutToken.status == 403, "the CSRF token is checked")
    }
}
