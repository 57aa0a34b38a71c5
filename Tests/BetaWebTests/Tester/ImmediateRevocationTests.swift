import Foundation
import Testing
import TestSupport

/// What `revoke` (or the dashboard's revoke), `remove-tester` and `token revoke` take away is refused from the very next
/// request after the command returns, against a running `betactl serve` whose snapshot of the
/// data was loaded (and its pages cached) just before.
@Suite(.serialized) struct ImmediateRevocationTests {
    @Test func theRequestRightAfterRevokeRemoveTesterOrTokenRevokeIsRefused() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let ann = "\(server.base)/t/\(fixture.web.annToken)"
        let bo = "\(server.base)/t/\(fixture.web.boToken)"

        // Loaded and cached: the pages and the ipa answer.
        #expect(try await server.fetch("\(ann)/releases/1").status == 200)
        #expect(try await server.fetch("\(ann)/releases/1/app.ipa", ["-r", "0-99"]).status == 206)
        #expect(try await server.fetch(bo).status == 200)
        #expect(try await api(server, "GET", "/testers", token: fixture.read).status == 200)

        // Each command, then at once (no wait, no retry) the request it must refuse.
        try await blocking { _ = try fixture.cli.ok(["revoke", "1"]) }
        #expect(try await server.fetch("\(ann)/releases/1").status == 410, "the release page of a revoked build")
        #expect(try await server.fetch("\(ann)/releases/1/app.ipa", ["-r", "0-99"]).status == 410)
        #expect(try await server.fetch("\(ann)/releases/2/app.ipa", ["-r", "0-99"]).status == 206)
        // Revoked from the dashboard: its ipa is refused from the next request too.
        let dashboard = try DashboardClient(server)
        try await dashboard.logIn(fixture.admin)
        let page = try await dashboard.get("/admin/releases/2")
        let revoked = try await dashboard.post("/admin/releases/2/revoke", form: [("csrf", try DashboardClient.csrf(page))])
        #expect([200, 303].contains(revoked.status), "\(revoked.status) \(revoked.text.prefix(200))")
        let ipa = try await server.fetch("\(ann)/releases/2/app.ipa", ["-r", "0-99"])
        #expect(ipa.status == 410, "the ipa of a revoked build: \(ipa.status)")

        try await blocking { _ = try fixture.cli.ok(["remove-tester", "bo@example.com"]) }
        #expect(try await server.fetch(bo).status == 404, "a removed tester's page")

        try await blocking { _ = try fixture.cli.ok(["token", "revoke", "reader"]) }
        try await api(server, "GET", "/testers", token: fixture.read).problem(401, "unauthorized")

        // Still answered: what was not taken away.
        #expect(try await server.fetch(ann).status == 200)
    }
}
