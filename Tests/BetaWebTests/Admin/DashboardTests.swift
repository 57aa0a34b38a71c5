import Foundation
import Testing
import TestSupport

/// The dashboard as a browser uses it, spoken to with curl: a token exchanged for a server-side
/// session in an HttpOnly, SameSite=Strict cookie (Secure behind https), CSRF tokens on every
/// form, failed logins limited per address, and every value escaped.
@Suite(.serialized) struct DashboardTests {
    @Test func aTokenBuysASessionCookieThatLogoutAndRevocationEnd() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let browser = try DashboardClient(server)
        let anonymous = try await browser.get("/admin/releases")
        #expect(anonymous.status == 303 && anonymous.headers["location"] == "/admin/login?next=%2Fadmin%2Freleases")
        let cookies = try await browser.logInHeaders(fixture.write)
        let sessionCookie = try #require(cookies.first { $0.contains("betactl_session=") })
        #expect(sessionCookie.contains("; Path=/admin;") && sessionCookie.contains("; HttpOnly") && sessionCookie.contains("; SameSite=Strict"))
        #expect(sessionCookie.contains("Max-Age=43200") && !sessionCookie.contains("Secure"), "no Secure over plain http: \(sessionCookie)")
        #expect(cookies.contains { $0.contains("betactl_login=;") && $0.contains("Max-Age=0") }, "the login form's cookie is spent")
        let session = try #require(try browser.cookie("betactl_session"))
        #expect(session.count == 43)
        let overview = try await browser.get("/admin")
        #expect(overview.status == 200 && overview.text.contains("ci · write"))
        #expect(overview.headers["cache-control"] == "private, no-store")
        // Only digests are stored: neither the session id nor a token secret is in the database.
        // Read by another process: opening and closing the database file here would drop SQLite's
        // POSIX locks for the in-process server's connections.
        let scan = "import os, sys\nfor s in sys.argv[2:]:\n    print(any(s.encode() in open(p, 'rb').read() for p in (sys.argv[1], sys.argv[1] + '-wal') if os.path.exists(p)))"
        let found = try await runTool("python3", ["-c", scan, fixture.cli.home + "/betactl.sqlite", session, fixture.write, fixture.read, fixture.admin])
        #expect(found.text.split(separator: "\n") == ["False", "False", "False", "False"], "a secret is stored in the clear: \(found.text)")
        let stored = try await runTool("sqlite3", [fixture.cli.home + "/betactl.sqlite", "SELECT digest FROM admin_sessions"])
        let digest = try await runTool("sh", ["-c", "printf %s '\(session)' | sha256sum"])
        #expect(stored.text.trimmingCharacters(in: .whitespacesAndNewlines) == String(digest.text.prefix(64)))

        let logout = try await browser.post("/admin/logout", form: [("csrf", try DashboardClient.csrf(overview))])
        #expect(logout.status == 303 && logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
        // The old cookie no longer opens anything: the session ended on the server, not only in the browser.
        let replayed = try await server.fetch("\(server.base)/admin", ["-H", "Cookie: betactl_session=\(session)"])
        #expect(replayed.status == 303)

        try await browser.logIn(fixture.write)
        #expect(try await browser.get("/admin").status == 200)
        try fixture.cli.ok("token", "revoke", "ci")
        #expect(try await browser.get("/admin").status == 303, "revoking the token ends its sessions")
    }

    @Test func theCookieIsSecureBehindAnHTTPSProxyAndLoginFormsNeedTheirOwnCookie() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess(trustedProxies: ["127.0.0.1"])
        defer { server.stop() }
        let browser = try DashboardClient(server, headers: ["X-Forwarded-Proto: https", "X-Forwarded-Host: beta.example.com"])
        let cookies = try await browser.logInHeaders(fixture.admin)
        let session = try #require(cookies.first { $0.contains("betactl_session=") })
        #expect(session.hasSuffix("; Secure"), "\(session)")
        // A login posted without the form's own cookie (from another site) is refused.
        let page = try await browser.get("/admin/login")
        let forged = try await server.fetch("\(server.base)/admin/login", ["--data-urlencode", "token=\(fixture.admin)",
                                                                     "--data-urlencode", "csrf=\(try DashboardClient.csrf(page))"])
        #expect(forged.status == 403 && forged.headers["set-cookie"]?.contains("betactl_session") != true)
    }

    @Test func formsWithoutTheirCSRFTokenAreRefusedAndChangeNothing() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let browser = try DashboardClient(server)
        try await browser.logIn(fixture.write)
        let page = try await browser.get("/admin/testers")
        let csrf = try DashboardClient.csrf(page)
        let missing = try await browser.post("/admin/testers", form: [("name", "Mallory")])
        #expect(missing.status == 403 && missing.text.contains("Nothing was changed"))
        let wrong = try await browser.post("/admin/testers", form: [("name", "Mallory"), ("csrf", String(csrf.reversed()))])
        #expect(wrong.status == 403)
        let crossSite = try await browser.post("/admin/testers", form: [("name", "Mallory"), ("csrf", csrf)], ["-H", "Sec-Fetch-Site: cross-site"])
        #expect(crossSite.status == 403)
        let upload = try await browser.get("/admin/releases", ["-F", "ipa=@\(WebFixture.app("Beta.ipa"))", "-F", "again=true"])
        #expect(upload.status == 403)
        let removal = try await browser.post("/admin/testers/1/remove", form: [("confirm", "yes")])
        #expect(removal.status == 403)
        #expect((try cliJSON(fixture.cli, "testers", "--json") as? [String: [[String: Any]]])?["testers"]?.count == 2)
        #expect(try fixture.cli.ok("releases").split(separator: "\n").count == 4)
        // With the token, the same form works.
        let added = try await browser.post("/admin/testers", form: [("name", "Cy"), ("groups", "qa, beta"), ("csrf", csrf)])
        #expect(added.status == 303 && added.headers["location"] == "/admin/testers/3?notice=tester-added")
        let shown = try #require(try cliJSON(fixture.cli, "show-tester", "3", "--json") as? [String: Any])
        #expect(shown["groups"] as? [String] == ["beta", "qa"])

        // A read-scope session sees pages but cannot change anything.
        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readPage = try await reader.get("/admin/testers")
        #expect(readPage.status == 200 && !readPage.text.contains("id=\"add-tester-form\""))
        let refused = try await reader.post("/admin/testers", form: [("name", "Dee"), ("csrf", try DashboardClient.csrf(readPage))])
        #expect(refused.status == 403 && refused.text.contains("read scope"))
    }

    @Test func failedLoginsAreLimitedPerAddress() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess(trustedProxies: ["127.0.0.1"])
        defer { server.stop() }
        let guesser = try DashboardClient(server, headers: ["X-Forwarded-For: 203.0.113.9"])
        for attempt in 1 ... 5 {
            let failed = try await guesser.logIn("bct_guess\(attempt)AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            #expect(failed.status == 401, "attempt \(attempt)")
        }
        let blocked = try await guesser.logIn("bct_guess6AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        #expect(blocked.status == 429 && blocked.text.contains("Too many failed logins"))
        let wait = try #require(blocked.headers["retry-after"].flatMap(Int.init))
        #expect(wait > 800 && wait <= 900)
        let correct = try await guesser.logIn(fixture.admin)
        #expect(correct.status == 429, "a right token does not get through the block either")
        let neighbour = try DashboardClient(server, headers: ["X-Forwarded-For: 203.0.113.10"])
        #expect(try await neighbour.logIn(fixture.admin).status == 303, "another address is not affected")
    }

    @Test func everyPageRendersEscapedWithoutInlineScriptOrStyle() async throws {
        let fixture = try await AdminFixture.make()
        try fixture.cli.ok("add-tester", "<script>alert(1)</script>", "--email", "x@example.com", "--group", "qa")
        try fixture.cli.ok("release", WebFixture.app("Beta.ipa"), "--again", "--notes", "<img src=x onerror=alert(2)>")
        // A crash whose exception, thread and description are hostile, and a low-memory report.
        let crashes = try TemporaryDirectory("hostile-crash")
        try CrashScenario.hostileReport().write(to: URL(fileURLWithPath: crashes.child("hostile.ips")))
        try fixture.cli.ok("add-crash", crashes.child("hostile.ips"), LocalFixtures.url("inspect/ips/JetsamEvent-2024-05-06-101112.ips").path,
                           "--tester", "x@example.com", "--description", "<script>alert(3)</script>")
        let crashGroup = try CrashScenario.group(fixture.cli, 1)
        let server = try fixture.inProcess()
        defer { server.stop() }
        let browser = try DashboardClient(server)
        try await browser.logIn(fixture.read)
        let profile = try #require((try cliJSON(fixture.cli, "profiles", "--json") as? [[String: Any]])?.first?["uuid"] as? String)
        for path in ["/admin", "/admin/testers", "/admin/testers/3", "/admin/devices", "/admin/releases", "/admin/releases/4",
                     "/admin/profiles", "/admin/profiles/\(profile)", "/admin/symbols",
                     "/admin/crashes", "/admin/crashes/groups/\(crashGroup)", "/admin/crashes/1", "/admin/crashes/2"] {
            let page = try await browser.get(path)
            #expect(page.status == 200, "\(path): \(page.status)")
            #expect(!page.text.contains("<script>alert") && !page.text.contains("<img src=x"), "\(path) is escaped")
            #expect(!page.text.contains(" style=") && !page.text.contains("<style"), "\(path) has no inline style (the CSP forbids it)")
            let scripts = page.text.components(separatedBy: "<script").dropFirst()
            #expect(scripts.allSatisfy { $0.hasPrefix(" src=") }, "\(path) has no inline script")
            #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        }
        #expect(try await browser.get("/admin/testers").text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(try await browser.get("/admin/releases/4").text.contains("&lt;img src=x onerror=alert(2)&gt;"))
        let export = try await browser.get("/admin/devices/export?devices=not-in-profile")
        #expect(export.text == "Device ID\tDevice Name\tDevice Platform\n00008110-0000000000000D04\tBo's iPhone\tios\n")
        #expect(try await browser.get("/admin/testers/99").status == 404)
        #expect(try await browser.get("/admin/crashes/1").text.contains("&lt;script&gt;alert(3)&lt;/script&gt;"))
        withExtendedLifetime(crashes) {}
    }
}
