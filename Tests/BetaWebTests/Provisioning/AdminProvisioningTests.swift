import Foundation
import Testing
import TestSupport

/// The dashboard's Provisioning page: the auto switch (refused naming what is missing), the
/// approval rule, and the jobs with retry and cancel, all behind the admin scope and the CSRF guard.
@Suite struct AdminProvisioningTests {
    /// A job waiting to retry and a failed one, as the automatic flow leaves them.
    static func plantJobs(_ cli: Betactl) throws {
        try OpenAPITests.plantJobs(home: cli.home)
    }

    @Test func anAdminSeesTheJobsRetriesAndCancelsThemAndTheSwitchSaysWhatItLacks() async throws {
        let fixture = try await AdminFixture.make()
        try Self.plantJobs(fixture.cli)
        let server = try fixture.inProcess()
        defer { server.stop() }
        let admin = try DashboardClient(server)
        try await admin.logIn(fixture.admin)
        let page = try await admin.get("/admin/provisioning")
        #expect(page.status == 200)
        #expect(page.text.contains("href=\"/admin/provisioning\" aria-current=\"page\""), "the navigation marks Provisioning")
        #expect(page.text.contains("Automatic provisioning: <span class=\"flag muted\">off</span>"))
        #expect(page.text.contains("no code-signing identity is stored"), "the failed job's sentence is shown")
        #expect(page.text.contains("/admin/provisioning/jobs/1/cancel") && page.text.contains("/admin/provisioning/jobs/2/retry"))
        #expect(!page.text.contains("/admin/provisioning/jobs/2/cancel"), "a failed job cannot be cancelled")
        let csrf = try DashboardClient.csrf(page)

        let refused = try await admin.post("/admin/provisioning/auto", form: [("csrf", csrf), ("enabled", "true"), ("window", "60")])
        #expect(refused.status == 409)
        #expect(refused.text.contains("App Store Connect key") && refused.text.contains("approval rule"))
        let badWindow = try await admin.post("/admin/provisioning/auto", form: [("csrf", csrf), ("enabled", "false"), ("window", "soon")])
        #expect(badWindow.status == 422 && badWindow.text.contains("whole seconds"))
        let windowSet = try await admin.post("/admin/provisioning/auto", form: [("csrf", csrf), ("enabled", "false"), ("window", "45")])
        #expect(windowSet.status == 303)
        #expect(try await admin.get("/admin/provisioning").text.contains("value=\"45\""))

        let rule = try await admin.post("/admin/provisioning/rule", form: [("csrf", csrf), ("mode", "group"), ("group", "qa")])
        #expect(rule.status == 303 && rule.headers["location"] == "/admin/provisioning?notice=rule-saved")
        #expect(try fixture.cli.ok(["approval-rule"]).contains("group qa"))

        let cancelled = try await admin.post("/admin/provisioning/jobs/1/cancel", form: [("csrf", csrf)])
        #expect(cancelled.status == 303 && cancelled.headers["location"] == "/admin/provisioning?notice=job-cancelled")
        let again = try await admin.post("/admin/provisioning/jobs/1/cancel", form: [("csrf", csrf)])
        #expect(again.status == 409 && again.text.contains("job 1 already is cancelled"), "\(again.text.prefix(200))")
        let retried = try await admin.post("/admin/provisioning/jobs/1/retry", form: [("csrf", csrf)])
        #expect(retried.status == 303 && retried.headers["location"] == "/admin/provisioning?notice=job-retried")
        #expect(try await admin.post("/admin/provisioning/jobs/99/retry", form: [("csrf", csrf)]).status == 404)

        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readPage = try await reader.get("/admin/provisioning")
        #expect(readPage.status == 200 && !readPage.text.contains("/admin/provisioning/jobs/2/retry"), "a reader sees jobs, not their buttons")
        #expect(try await reader.post("/admin/provisioning/jobs/2/retry", form: [("csrf", try DashboardClient.csrf(readPage))]).status == 403)
    }
}
