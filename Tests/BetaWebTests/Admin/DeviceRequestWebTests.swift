import AppleFormats
import Foundation
import Testing
import TestSupport

/// Device requests over the API (admin scope) and on the dashboard's device page (Approve and
/// Reject behind the CSRF guard), with requests made for real through `/t/<token>/enroll`.
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct DeviceRequestWebTests {
    static let udids = ["00008120-0000000000000B01", "00008120-0000000000000B02", "00008120-0000000000000B03", "00008120-0000000000000B04"]

    /// A server taking Bo's self-signed replies (as `--allow-unverified-enrollment` does) with four open requests from Bo.
    static func withRequests() async throws -> (AdminFixture, InProcessServer) {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess { $0.enrollment.acceptsUnverified = true }
        for (index, udid) in udids.enumerated() {
            try await AdminPendingDeviceTests.enroll(server, token: fixture.web.boToken, udid: udid, name: "Bo's phone \(index + 1)")
        }
        return (fixture, server)
    }

    static func iPhoneSlots(_ fixture: AdminFixture) throws -> Int? {
        let json = try cliJSON(fixture.cli, "devices", "--json") as? [String: Any]
        return ((json?["usage"] as? [String: Any])?["iphone"] as? [String: Any])?["used"] as? Int
    }

    @Test func theAPIListsApprovesAndRejectsRequestsWithAnAdminToken() async throws {
        let (fixture, server) = try await Self.withRequests()
        defer { server.stop() }
        let slots = try Self.iPhoneSlots(fixture)
        #expect(try await api(server, "GET", "/device-requests", token: fixture.write).status == 403, "admin scope")
        #expect(try await api(server, "POST", "/device-requests/\(Self.udids[0])/approve", token: fixture.write).status == 403)
        let listed = try await api(server, "GET", "/device-requests", token: fixture.admin).object()
        let requests = try #require(listed["requests"] as? [[String: Any]])
        #expect(requests.map { $0["udid"] as? String } == Self.udids)
        #expect(requests.first?["tester"] as? String == "Bo Chen")
        #expect(requests.first?["deviceName"] as? String == "Bo's phone 1")
        #expect(requests.first?["verified"] as? Bool == false)
        #expect((listed["rule"] as? [String: Any])?["mode"] as? String == "off")
        // The API's list is the CLI's.
        let cli = try #require(try cliJSON(fixture.cli, "requests", "--json") as? [String: Any])
        #expect((cli["requests"] as? [[String: Any]])?.map { $0["udid"] as? String } == Self.udids)

        let approve = try await api(server, "POST", "/device-requests/\(Self.udids[0])/approve", token: fixture.admin)
        #expect(approve.status == 200)
        let device = try #require(try approve.object()["device"] as? [String: Any])
        #expect(device["udid"] as? String == Self.udids[0])
        #expect(device["pending"] as? Bool == true)
        #expect(device["tester"] as? String == "Bo Chen")
        #expect(try Self.iPhoneSlots(fixture) == slots.map { $0 + 1 })
        let reject = try await api(server, "POST", "/device-requests/\(Self.udids[1])/reject", token: fixture.admin)
        #expect(reject.status == 200)
        #expect((try reject.object()["rejected"] as? [String: Any])?["udid"] as? String == Self.udids[1])
        #expect(try Self.iPhoneSlots(fixture) == slots.map { $0 + 1 }, "rejecting frees nothing and takes nothing")
        let missing = try await api(server, "POST", "/device-requests/\(Self.udids[1])/approve", token: fixture.admin)
        #expect(missing.status == 404)
        #expect(try missing.object()["type"] as? String == "urn:betactl:problem:device-not-found")
        #expect((try missing.object()["detail"] as? String)?.contains("no open request for device \(Self.udids[1])") == true)
        let bad = try await api(server, "POST", "/device-requests/not-a-udid/approve", token: fixture.admin)
        #expect(bad.status == 422 || bad.status == 400, "\(bad.status)")
        let left = try await api(server, "GET", "/device-requests", token: fixture.admin).object()
        #expect((left["requests"] as? [[String: Any]])?.map { $0["udid"] as? String } == Array(Self.udids.suffix(2)))
        let pending = try await api(server, "GET", "/devices/pending", token: fixture.read).object()
        #expect((pending["devices"] as? [[String: Any]])?.map { $0["udid"] as? String } == [Self.udids[0]], "approved, it is pending")
    }

    @Test func theDashboardsDevicePageApprovesAndRejectsBehindTheCSRFGuard() async throws {
        let (fixture, server) = try await Self.withRequests()
        defer { server.stop() }
        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readOnly = try await reader.get("/admin/devices").text
        #expect(readOnly.contains("id=\"device-requests\""))
        #expect(readOnly.contains(Self.udids[0]))
        #expect(!readOnly.contains("/admin/devices/requests/\(Self.udids[0])/approve"), "no buttons without admin scope")
        #expect(readOnly.contains("Approving and rejecting need an admin token."))

        let browser = try DashboardClient(server)
        try await browser.logIn(fixture.admin)
        let page = try await browser.get("/admin/devices")
        let html = page.text
        #expect(html.contains("Approval rule: off: every request waits for approval."))
        #expect(html.contains("action=\"/admin/devices/requests/\(Self.udids[0])/approve\""))
        #expect(html.contains("action=\"/admin/devices/requests/\(Self.udids[0])/reject\""))
        #expect(html.contains("Bo&#39;s phone 1"))
        #expect(html.contains("unverified signature"))
        let slots = try Self.iPhoneSlots(fixture)
        // Without the form's token nothing happens.
        let forged = try await browser.post("/admin/devices/requests/\(Self.udids[0])/approve", form: [("csrf", "wrong")])
        #expect(forged.status == 403)
        #expect(try Self.iPhoneSlots(fixture) == slots)
        let csrf = try DashboardClient.csrf(page)
        let approved = try await browser.post("/admin/devices/requests/\(Self.udids[0])/approve", form: [("csrf", csrf)])
        #expect(approved.status == 303)
        #expect(approved.headers["location"] == "/admin/devices?notice=request-approved")
        #expect(try Self.iPhoneSlots(fixture) == slots.map { $0 + 1 })
        let rejected = try await browser.post("/admin/devices/requests/\(Self.udids[1])/reject", form: [("csrf", csrf)])
        #expect(rejected.headers["location"] == "/admin/devices?notice=request-rejected")
        #expect(try Self.iPhoneSlots(fixture) == slots.map { $0 + 1 })
        let after = try await browser.get("/admin/devices?notice=request-rejected").text
        #expect(after.contains("The request was rejected. It held no slot, so none was freed."))
        #expect(!after.contains("action=\"/admin/devices/requests/\(Self.udids[0])/approve\""))
        #expect(after.contains("action=\"/admin/devices/requests/\(Self.udids[2])/approve\""))
        // A request already decided is refused with the page and its reason.
        let again = try await browser.post("/admin/devices/requests/\(Self.udids[1])/approve", form: [("csrf", csrf)])
        #expect(again.status == 404)
        #expect(again.text.contains("no open request for device \(Self.udids[1])"))
        let remaining = try #require(try cliJSON(fixture.cli, "requests", "--json") as? [String: Any])
        #expect((remaining["requests"] as? [[String: Any]])?.map { $0["udid"] as? String } == Array(Self.udids.suffix(2)))
    }
}
