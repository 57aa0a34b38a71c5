import Foundation
import Testing
import TestSupport

/// The dashboard's Re-sign button on a release page: choose an imported profile, get a new release.
@Suite(.serialized, .enabled(if: OpenSSLTool.available)) struct DashboardResignTests {
    @Test func theReleasePageReSignsWithAChosenProfileAndTheNewReleaseNamesTheOriginal() async throws {
        let fixture = try await AdminFixture.make()
        let work = try TemporaryDirectory()
        try ResigningFixtures.make(in: work)
        try fixture.cli.ok("code-identity", "import", work.child("cert.pem"), work.child("key.pem"))
        try fixture.cli.ok("import-profile", work.child("new.mobileprovision"))
        let server = try fixture.inProcess()
        defer { server.stop() }
        let browser = try DashboardClient(server)
        try await browser.logIn(fixture.write)
        let page = try await browser.get("/admin/releases/1")
        #expect(page.text.contains("action=\"/admin/releases/1/resign\""))
        #expect(page.text.contains("<option value=\"\(ResigningFixtures.profileUUID)\">\(ResigningFixtures.profileName) (ad-hoc)</option>"))
        let answer = try await browser.post("/admin/releases/1/resign", form: [("csrf", try DashboardClient.csrf(page)), ("profile", ResigningFixtures.profileUUID)])
        #expect(answer.status == 303, "\(answer.text.prefix(400))")
        let location = try #require(answer.headers["location"])
        #expect(location.hasPrefix("/admin/releases/") && location.contains("notice=release-resigned"))
        let created = try await browser.get(String(location))
        #expect(created.text.contains("from <a href=\"/admin/releases/1\">release 1</a>"))
        #expect(created.text.contains(ResigningFixtures.profileName))

        // Without the CSRF field nothing happens.
        let forged = try await browser.post("/admin/releases/1/resign", form: [("profile", ResigningFixtures.profileUUID)])
        #expect(forged.status == 403)
    }
}
