import Foundation
import Testing
import TestSupport

/// The dashboard's Webhooks page: an admin adds, tests and removes endpoints behind the CSRF guard,
/// the secret is shown once, and other scopes see the endpoints without their URLs' paths.
@Suite struct AdminWebhookTests {
    @Test func anAdminAddsTestsAndRemovesAWebhookAndAReaderSeesOnlyHosts() async throws {
        let fixture = try await AdminFixture.make()
        let receiver = try await WebhookReceiver.start()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let admin = try DashboardClient(server)
        try await admin.logIn(fixture.admin)
        let page = try await admin.get("/admin/webhooks")
        #expect(page.status == 200 && page.text.contains("No webhooks yet.") && page.text.contains("<option value=\"crash.new_group\">"))
        let csrf = try DashboardClient.csrf(page)

        let refused = try await admin.post("/admin/webhooks", form: [("csrf", csrf), ("url", "http://127.0.0.1:9/hook")])
        #expect(refused.status == 409 && refused.text.contains("a loopback address") && refused.text.contains("--allow-private"))
        let created = try await admin.post("/admin/webhooks", form: [("csrf", csrf), ("url", receiver.base + "/ok/secret-path"), ("format", "standard"),
                                                                     ("event", "release.published"), ("event", "webhook.test"), ("allowPrivate", "true")])
        #expect(created.status == 422 && created.text.contains("webhook.test&quot; is not a webhook event"), "\(created.status)")
        let added = try await admin.post("/admin/webhooks", form: [("csrf", csrf), ("url", receiver.base + "/ok/secret-path"), ("format", "standard"),
                                                                   ("event", "release.published"), ("event", "tester.added"), ("allowPrivate", "true")])
        #expect(added.status == 201)
        let secret = try #require(added.text.components(separatedBy: "id=\"webhook-secret\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(secret.hasPrefix("whsec_"))
        try receiver.expectSecret(String(secret), for: "/ok/secret-path")
        #expect(!(try await admin.get("/admin/webhooks")).text.contains(String(secret)), "the secret is shown once")

        let tested = try await admin.post("/admin/webhooks/1/test", form: [("csrf", csrf)])
        #expect(tested.status == 303 && tested.headers["location"] == "/admin/webhooks?notice=webhook-test-queued")
        let requests = await receiver.arrived { $0.count >= 1 }
        #expect(requests.first?.verified == true && (requests.first?.json["type"] as? String) == "webhook.test")

        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readPage = try await reader.get("/admin/webhooks")
        #expect(readPage.text.contains(receiver.base + "/…") && !readPage.text.contains("secret-path"))
        #expect(!readPage.text.contains("/admin/webhooks/1/remove"))
        #expect(try await reader.post("/admin/webhooks/1/remove", form: [("csrf", try DashboardClient.csrf(readPage))]).status == 403)

        #expect(try await admin.post("/admin/webhooks/1/remove", form: [("csrf", "wrong")]).status == 403, "the CSRF token is checked")
        let removed = try await admin.post("/admin/webhooks/1/remove", form: [("csrf", csrf)])
        #expect(removed.status == 303)
        #expect((try await admin.get("/admin/webhooks?notice=webhook-removed")).text.contains("No webhooks yet."))
    }
}
