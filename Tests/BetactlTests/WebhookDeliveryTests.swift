import Foundation
import Testing
import TestSupport

/// Webhooks end to end: `betactl webhook add`, changes made by other commands, `betactl serve`
/// delivering in the background to a Python http.server receiver that checks every signature
/// with Python's own `hmac`.
@Suite struct WebhookDeliveryTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/\(name)").path }

    /// `webhook add URL --allow-private --json` and the secret it printed.
    static func add(_ cli: Betactl, _ url: String, _ extra: [String] = []) async throws -> (id: Int, secret: String) {
        struct Created: Decodable {
            struct Hook: Decodable { var id: Int }
            var webhook: Hook
            var secret: String
        }
        let result = try await cli.runAsync(["webhook", "add", url, "--allow-private", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let created = try JSONDecoder().decode(Created.self, from: Data(result.stdout.utf8))
        return (created.webhook.id, created.secret)
    }

    static func serve(_ cli: Betactl) async throws -> ServeProcess {
        try await ServeProcess.start(cli, ["serve", "--listen", "127.0.0.1:0", "--no-access-log", "--webhook-backoff-scale", "0.001"])
    }

    static func type(_ request: WebhookReceiver.Request) -> String { request.json["type"] as? String ?? "" }

    @Test func eventsQueuedWhileNoServerRunsAreDeliveredSignedWithLinksAndNoSecretLink() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await WebhookReceiver.start()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init", "--public-url", "https://beta.example.com")
        let hook = try await Self.add(cli, receiver.base + "/ok")
        #expect(hook.secret.hasPrefix("whsec_"))
        try receiver.expectSecret(hook.secret, for: "/ok")
        let added = try await cli.okAsync("add-tester", "Ann Lee", "--email", "ann@example.com")
        let token = try #require(added.components(separatedBy: "/t/").last?.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        try await cli.okAsync("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols", "--notes", "Fixes the login screen")
        try await cli.okAsync("import-profile", Self.fixture("profiles/beta_adhoc.mobileprovision"))
        try await cli.okAsync("revoke", "1")
        #expect(receiver.requests.isEmpty, "nothing is sent on the command's own path")

        let server = try await Self.serve(cli)
        defer { _ = server.stop() }
        let requests = await receiver.arrived { $0.count >= 4 }
        #expect(requests.map(Self.type) == ["tester.added", "release.published", "profile.imported", "release.revoked"])
        for request in requests {
            #expect(request.verified == true, "Python's hmac verifies \(Self.type(request))")
            #expect(!request.duplicate)
            #expect(!request.body.contains(String(token)), "no tester's secret link in \(request.body)")
            #expect(request.headers["content-type"] == "application/json")
            let stamp = Double(request.headers["webhook-timestamp"] ?? "") ?? 0
            #expect(abs(stamp - request.time) < 300)
        }
        let published = try #require(requests.first { Self.type($0) == "release.published" }?.json["data"] as? [String: Any])
        let release = try #require(published["release"] as? [String: Any])
        #expect(release["id"] as? Int == 1 && release["bundle_id"] as? String != nil && release["notes"] as? String == "Fixes the login screen")
        #expect(published["url"] as? String == "https://beta.example.com/admin/releases/1")
        #expect(published["install_page_pattern"] as? String == "https://beta.example.com/t/{tester_token}")
        let tester = try #require(requests.first?.json["data"] as? [String: Any])
        #expect((tester["tester"] as? [String: Any])?["name"] as? String == "Ann Lee")
        #expect((tester["url"] as? String)?.hasPrefix("https://beta.example.com/admin/testers/") == true)
        let profile = try #require(requests[2].json["data"] as? [String: Any])
        #expect((profile["profile"] as? [String: Any])?["uuid"] as? String != nil)

        struct Deliveries: Decodable {
            struct Delivery: Decodable { var state: String; var attempts: Int; var lastStatus: Int?; var event: String }
            var deliveries: [Delivery]
        }
        let listed = try JSONDecoder().decode(Deliveries.self, from: Data(try await cli.okAsync("webhook", "deliveries", String(hook.id), "--json").utf8))
        #expect(listed.deliveries.count == 4 && listed.deliveries.allSatisfy { $0.state == "delivered" && $0.attempts == 1 && $0.lastStatus == 200 })
        let text = try await cli.okAsync("webhook", "deliveries")
        #expect(text.contains("release.published") && text.contains("delivered"))
        await server.stopped()
    }

    @Test func aFailingEndpointIsRetriedUnderTheSameIdAfter500sATimeoutAndRetryAfter() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await WebhookReceiver.start()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init")
        let failing = try await Self.add(cli, receiver.base + "/fail/2", ["--event", "tester.added"])
        let slow = try await Self.add(cli, receiver.base + "/slow/1/25", ["--event", "tester.added"])
        let limited = try await Self.add(cli, receiver.base + "/retry-after/2", ["--event", "tester.added"])
        try receiver.expectSecret(failing.secret, for: "/fail/2")
        try receiver.expectSecret(slow.secret, for: "/slow/1/25")
        try receiver.expectSecret(limited.secret, for: "/retry-after/2")
        let server = try await Self.serve(cli)
        defer { _ = server.stop() }
        try await cli.okAsync("add-tester", "Bo")
        let requests = await receiver.arrived(timeout: 120) { all in
            all.filter { $0.path == "/fail/2" }.count >= 3 && all.filter { $0.path == "/slow/1/25" }.count >= 2
                && all.filter { $0.path == "/retry-after/2" }.count >= 2
        }
        for path in ["/fail/2", "/slow/1/25", "/retry-after/2"] {
            let attempts = requests.filter { $0.path == path }
            #expect(Set(attempts.map { $0.headers["webhook-id"] ?? "" }).count == 1, "every attempt to \(path) has one webhook-id")
            #expect(attempts.allSatisfy { $0.verified == true })
            #expect(attempts.dropFirst().allSatisfy { $0.duplicate })
        }
        #expect(requests.filter { $0.path == "/fail/2" }.count == 3)
        let limitedAttempts = requests.filter { $0.path == "/retry-after/2" }
        if limitedAttempts.count >= 2 {
            #expect(limitedAttempts[1].time - limitedAttempts[0].time >= 1.9, "Retry-After: 2 is honoured")
        }
        struct Deliveries: Decodable {
            struct Delivery: Decodable { var webhookId: Int; var state: String; var attempts: Int }
            var deliveries: [Delivery]
        }
        var listed: [Deliveries.Delivery] = []
        let deadline = Date().addingTimeInterval(60)
        repeat {
            listed = try JSONDecoder().decode(Deliveries.self, from: Data(try await cli.okAsync("webhook", "deliveries", "--json").utf8)).deliveries
            if listed.allSatisfy({ $0.state == "delivered" }) { break }
            try await Task.sleep(for: .milliseconds(100))
        } while Date() < deadline
        #expect(listed.first { $0.webhookId == failing.id }.map { $0.state == "delivered" && $0.attempts == 3 } == true)
        #expect(listed.first { $0.webhookId == slow.id }.map { $0.state == "delivered" && $0.attempts == 2 } == true)
        #expect(listed.first { $0.webhookId == limited.id }.map { $0.state == "delivered" && $0.attempts == 2 } == true)
        let attempts = try await runTool("sqlite3", ["-cmd", ".timeout 30000", directory.child("home/betactl.sqlite"),
                                                  "SELECT error FROM webhook_attempts WHERE error LIKE '%did not answer within 10 s%'"])
        #expect(attempts.text.contains("did not answer within 10 s"), "the slow endpoint's first attempt timed out")
        await server.stopped()
    }

    @Test func aServerKilledMidDeliveryDeliversOnceMoreUnderTheSameIdAfterRestart() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await WebhookReceiver.start()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init")
        let hook = try await Self.add(cli, receiver.base + "/slow/1/60")
        try receiver.expectSecret(hook.secret, for: "/slow/1/60")
        try await cli.okAsync("add-tester", "Cy")
        let first = try await Self.serve(cli)
        await receiver.arrived { $0.count >= 1 }
        first.process.killGroup(SIGKILL)
        _ = await first.process.exited(timeout: 30)
        #expect(receiver.requests.count == 1)
        let second = try await Self.serve(cli)
        defer { _ = second.stop() }
        let requests = await receiver.arrived { $0.count >= 2 }
        #expect(requests.count == 2)
        #expect(Set(requests.map { $0.headers["webhook-id"] ?? "" }).count == 1, "one webhook-id: the receiver deduplicates")
        #expect(requests.last?.duplicate == true && requests.allSatisfy { $0.verified == true })
        var state = ""
        let deadline = Date().addingTimeInterval(60)
        repeat {
            state = try await runTool("sqlite3", ["-cmd", ".timeout 30000", directory.child("home/betactl.sqlite"), "SELECT state, attempts FROM webhook_deliveries"]).text
            if state.hasPrefix("delivered") { break }
            try await Task.sleep(for: .milliseconds(100))
        } while Date() < deadline
        #expect(state == "delivered|1\n", "the interrupted attempt is not counted as an answer")
        let interrupted = try await runTool("sqlite3", ["-cmd", ".timeout 30000", directory.child("home/betactl.sqlite"), "SELECT count(*) FROM webhook_attempts WHERE error LIKE 'interrupted%'"])
        #expect(interrupted.text == "1\n")
        try await Task.sleep(for: .milliseconds(500))
        #expect(receiver.requests.count == 2, "nothing more is sent")
        await second.stopped()
    }

    @Test func urlsInsidePrivateNetworksAreRefusedUnlessAllowed() async throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init")
        let refused: [(String, String)] = [
            ("http://127.0.0.1:9/hook", "loopback"), ("http://localhost/hook", "loopback"), ("http://[::1]/hook", "loopback"),
            ("http://169.254.169.254/latest/meta-data", "link-local"), ("http://10.1.2.3/", "private"), ("http://192.168.0.10/", "private"),
            ("http://172.16.5.4/", "private"), ("http://[fd00::1]/", "private"), ("http://[::ffff:127.0.0.1]/", "loopback"),
            ("http://0.0.0.0/", "reserved"), ("http://100.64.0.1/", "private"),
        ]
        for (url, range) in refused {
            let result = try await cli.runAsync("webhook", "add", url)
            #expect(result.status == 1, "\(url)")
            #expect(result.stderr.contains("a \(range) address") && result.stderr.contains("--allow-private"), "\(url): \(result.stderr)")
        }
        for url in ["ftp://example.com/hook", "http://user:secret@example.com/hook", "hooks.example.com", "http:///nohost"] {
            let result = try await cli.runAsync("webhook", "add", url)
            #expect(result.status == 65 && result.stderr.contains("is not an absolute http:// or https:// URL"), "\(url): \(result.stderr)")
        }
        let badEvent = try await cli.runAsync("webhook", "add", "http://127.0.0.1/", "--allow-private", "--event", "release.deleted")
        #expect(badEvent.status == 65 && badEvent.stderr.contains("\"release.deleted\" is not a webhook event"))
        #expect(try await cli.okAsync("webhook", "list").contains("No webhooks yet"))
        let allowed = try await cli.runAsync("webhook", "add", "http://127.0.0.1:9/hook", "--allow-private")
        #expect(allowed.status == 0 && allowed.stdout.hasPrefix("whsec_"))
        let list = try await cli.okAsync("webhook", "list")
        #expect(list.contains("http://127.0.0.1:9/hook") && list.contains("every event") && list.contains("enabled"))
        // Nothing listens on port 9: the test fails and says why.
        let test = try await cli.runAsync("webhook", "test", "1")
        #expect(test.status == 1 && test.stderr.contains("was not delivered"))
        #expect(try await cli.okAsync("webhook", "remove", "1").contains("Removed webhook 1"))
        #expect(try await cli.runAsync("webhook", "remove", "1").stderr.contains("no webhook has the id 1"))
    }

    @Test func slackAndDiscordGetTheirOwnShapesAndRedirectsAreNotFollowed() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await WebhookReceiver.start()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init", "--public-url", "https://beta.example.com")
        let slack = try await Self.add(cli, receiver.base + "/ok/slack", ["--format", "slack"])
        let discord = try await Self.add(cli, receiver.base + "/ok/discord", ["--format", "discord"])
        let redirect = try await Self.add(cli, receiver.base + "/redirect")
        let big = try await Self.add(cli, receiver.base + "/big")
        #expect(try await cli.okAsync("webhook", "test", String(slack.id)).contains("answered 200"))
        #expect(try await cli.okAsync("webhook", "test", String(discord.id)).contains("answered 200"))
        let redirected = try await cli.runAsync("webhook", "test", String(redirect.id))
        #expect(redirected.status == 1 && redirected.stderr.contains("answered 302"))
        #expect(try await cli.okAsync("webhook", "test", String(big.id)).contains("answered 200"), "a 1 MiB answer is read up to 64 KB, not refused")
        let requests = receiver.requests
        #expect(requests.map(\.path) == ["/ok/slack", "/ok/discord", "/redirect", "/big"], "the redirect to /ok is not followed")
        let slackBody = requests[0].json
        #expect((slackBody["text"] as? String)?.contains("<https://beta.example.com/admin/webhooks|Open>") == true)
        #expect(((slackBody["blocks"] as? [[String: Any]])?.first?["type"] as? String) == "section")
        #expect(requests[0].headers["webhook-signature"] == nil)
        let discordBody = requests[1].json
        #expect((discordBody["content"] as? String)?.hasPrefix("Test event") == true)
        let embed = (discordBody["embeds"] as? [[String: Any]])?.first
        #expect(embed?["url"] as? String == "https://beta.example.com/admin/webhooks" && embed?["title"] as? String == "Test event")
        #expect(requests[2].headers["webhook-signature"]?.hasPrefix("v1,") == true)
    }
}

/// The other commands' events: a download through the tester's page, an approved device request,
/// a crash that starts a group and is symbolicated when its dSYM arrives.
@Suite struct WebhookEventTests {
    @Test func downloadsApprovalsAndCrashesAreDelivered() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await WebhookReceiver.start()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init", "--public-url", "https://beta.example.com")
        let hook = try await WebhookDeliveryTests.add(cli, receiver.base + "/ok", ["--event", "release.downloaded", "--event", "device.approved",
                                                                             "--event", "crash.new_group", "--event", "crash.symbolicated"])
        try receiver.expectSecret(hook.secret, for: "/ok")
        let added = try await cli.okAsync("add-tester", "Ann Lee", "--email", "ann@example.com")
        let token = try #require(added.components(separatedBy: "/t/").last.map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) })
        try await cli.okAsync("release", WebhookDeliveryTests.fixture("app/Beta.ipa"), "--allow-missing-symbols")
        let server = try await WebhookDeliveryTests.serve(cli)
        defer { _ = server.stop() }

        let download = try await curl("\(server.base)/t/\(token)/releases/1/app.ipa")
        #expect(download.status == 200)
        // A request as a device enrolling from Ann's link leaves it, approved from the CLI.
        let planted = try await runTool("sqlite3", ["-cmd", ".timeout 30000", directory.child("home/betactl.sqlite"), """
            INSERT INTO device_requests (udid, tester_id, family, product, device_name, requested_at)
            VALUES ('00008120-0000000000000D01', 1, 'iphone', 'iPhone15,2', 'Ann''s phone', '2026-11-10T10:00:00Z')
            """])
        #expect(planted.status == 0, "\(planted.error)")
        try await cli.okAsync("approve-device", "00008120-0000000000000D01")
        try await cli.okAsync("add-crash", LocalFixtures.url("symbols/crashes/App-309.ips").path)
        try await cli.okAsync("add-symbols", LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path)

        let expected: Set<String> = ["release.downloaded", "device.approved", "crash.new_group", "crash.symbolicated"]
        let requests = await receiver.arrived { Set($0.map(WebhookDeliveryTests.type)).isSuperset(of: expected) }
        #expect(requests.map(WebhookDeliveryTests.type).sorted() == expected.sorted(), "each once: \(requests.map { "\(WebhookDeliveryTests.type($0)) \($0.headers["webhook-id"] ?? "")" })")
        #expect(requests.allSatisfy { $0.verified == true && !$0.body.contains(token) })
        func data(_ type: String) -> [String: Any] {
            requests.first { WebhookDeliveryTests.type($0) == type }?.json["data"] as? [String: Any] ?? [:]
        }
        let downloaded = data("release.downloaded")
        #expect(((downloaded["download"] as? [String: Any])?["tester"] as? [String: Any])?["name"] as? String == "Ann Lee")
        #expect((downloaded["release"] as? [String: Any])?["id"] as? Int == 1)
        let approved = data("device.approved")
        #expect((approved["device"] as? [String: Any])?["udid"] as? String == "00008120-0000000000000D01")
        #expect(approved["url"] as? String == "https://beta.example.com/admin/testers/1")
        let group = data("crash.new_group")
        #expect(((group["group"] as? [String: Any])?["url"] as? String)?.hasPrefix("https://beta.example.com/admin/crashes/groups/") == true)
        #expect((group["report"] as? [String: Any])?["id"] as? Int == 1)
        #expect(data("crash.symbolicated")["url"] as? String == "https://beta.example.com/admin/crashes/1")
        await server.stopped()
    }

    /// App-309.ips as another incident of build `build`.
    static func crash(build: String, incident: String, in directory: TemporaryDirectory) throws -> String {
        var text = try String(contentsOf: LocalFixtures.url("symbols/crashes/App-309.ips"), encoding: .utf8)
        text = text.replacingOccurrences(of: "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6", with: incident)
            .replacingOccurrences(of: "\"build_version\": \"42\"", with: "\"build_version\": \"\(build)\"")
            .replacingOccurrences(of: "\"CFBundleVersion\": \"42\"", with: "\"CFBundleVersion\": \"\(build)\"")
        let path = directory.child("App-\(build).ips")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCrashSeenAgainInANewerBuildIsRegressedButNotInAnOlderOne() async throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try await cli.okAsync("init")
        try await cli.okAsync("webhook", "add", "http://127.0.0.1:9/hook", "--allow-private", "--event", "crash.new_group", "--event", "crash.regressed")
        try await cli.okAsync("add-crash", try Self.crash(build: "42", incident: "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E501", in: directory))
        try await cli.okAsync("add-crash", try Self.crash(build: "43", incident: "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E502", in: directory))
        try await cli.okAsync("add-crash", try Self.crash(build: "41", incident: "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E503", in: directory))
        let events = try await runTool("sqlite3", ["-cmd", ".timeout 30000", directory.child("home/betactl.sqlite"), "SELECT type FROM webhook_events ORDER BY id"]).text
        #expect(events == "crash.new_group\ncrash.regressed\n", "the build 41 report is older than the last seen (43)")
    }
}
