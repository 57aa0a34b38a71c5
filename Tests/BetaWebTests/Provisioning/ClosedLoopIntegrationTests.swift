import Foundation
import Testing
import TestSupport

/// The closed loop end to end, with the web application (in this process, or a real
/// `betactl serve` where it is killed) and the test App Store Connect server:
/// a tester enrols a device, the rule approves it, the server sees the registration and the
/// profile creations, and the tester's page offers a re-signed build, whose ipa verifies and whose
/// embedded profile lists the device. A server killed with SIGKILL at each step and restarted
/// finishes the flow with no second call that changes anything at Apple.
@Suite(.serialized, .enabled(if: AppStoreConnectServer.isAvailable && OpenSSLTool.available && SharedFixtures.available,
                             "needs the test App Store Connect server's venv, openssl and ../shared/fixtures"))
struct ClosedLoopIntegrationTests {
    static let udid = "00008120-001A2B3C4D5E6F70"

    /// An enrolment home connected to a test App Store Connect server, with the server's
    /// distribution identity imported, the fixture app released and `apple auto on --window 0`.
    struct Loop {
        let fixture: EnrollmentFixture
        let apple: AppStoreConnectServer
        var cli: Betactl { fixture.cli }

        static func make(_ scenario: [String: Any] = [:]) async throws -> Loop {
            let fixture = try await EnrollmentFixture()
            var full: [String: Any] = [
                "generate_devices": 3, "bundle_ids": ["com.example.beta", "com.example.beta.widget"],
                "entitlements": ["aps-environment": "production", "com.apple.developer.associated-domains": "*",
                                 "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
                                 "com.apple.security.application-groups": ["group.com.example.beta"]],
            ]
            full.merge(scenario) { $1 }
            let apple = try AppStoreConnectServer(scenario: full)
            let cli = fixture.cli
            try cli.ok(["apple", "connect", "--key", apple.key.path, "--key-id", apple.key.id, "--issuer-id", apple.key.issuer,
                        "--base-url", apple.baseURL, "--ca-file", apple.caFile])
            #expect(try cli.run(["apple", "auto", "on"]).stderr.contains("code-signing identity"), "on names what is missing")
            try cli.ok(["code-identity", "import", apple.directory.child("state/dist0.pem"), apple.directory.child("state/dist0.key")])
            try cli.ok(["release", WebFixture.app("Beta.ipa"), "--dsym", WebFixture.app("Beta.app.dSYM.zip"),
                        "--dsym", WebFixture.app("BetaWidget.appex.dSYM.zip")])
            try cli.ok(["apple", "auto", "on", "--window", "0"])
            return Loop(fixture: fixture, apple: apple)
        }

        /// Enrols Ann's device `udid` through the server and returns the result page.
        func enrol(_ server: any WebEndpoint, udid: String = ClosedLoopIntegrationTests.udid) async throws -> (outcome: String, page: String) {
            let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
            return try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(udid: udid, challenge: challenge))
        }

        /// `jobs --json`.
        func jobs() throws -> [[String: Any]] {
            try JSONSerialization.jsonObject(with: Data(try cli.ok(["jobs", "--json"]).utf8)) as? [[String: Any]] ?? []
        }

        /// Waits (generously) until every job finished and there is at least `count` of them; returns them.
        func finished(atLeast count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
            let deadline = Date().addingTimeInterval(240)
            while Date() < deadline {
                let jobs = try jobs()
                if jobs.count >= count, jobs.allSatisfy({ ["succeeded", "failed", "cancelled"].contains($0["state"] as? String ?? "") }) { return jobs }
                try await Task.sleep(for: .milliseconds(200))
            }
            Issue.record("the jobs did not finish: \(try jobs())", sourceLocation: sourceLocation)
            return try jobs()
        }

        /// Calls to the test server that changed something (2xx, not GET), as "METHOD /path".
        func changingCalls() throws -> [String] {
            try apple.calls().filter { $0.method != "GET" && $0.status < 300 }.map { "\($0.method) \($0.path.prefix { $0 != "?" })" }
        }

        /// `releases --all --json`.
        func releases(all: Bool = true) throws -> [[String: Any]] {
            try JSONSerialization.jsonObject(with: Data(try cli.ok(["releases", "--json"] + (all ? ["--all"] : [])).utf8)) as? [[String: Any]] ?? []
        }
    }

    @Test func anEnrolledDeviceGetsAReSignedBuildThatInstallsOnItWithNobodyInApplesPortal() async throws {
        let loop = try await Loop.make()
        let server = try loop.fixture.inProcess()
        defer { server.stop() }
        let (outcome, _) = try await loop.enrol(server)
        #expect(outcome == "registered", "the rule approved it")
        let jobs = try await loop.finished(atLeast: 2)
        #expect(jobs.map { $0["state"] as? String } == ["succeeded", "succeeded"], "\(jobs)")
        #expect(Set(jobs.compactMap { $0["kind"] as? String }) == ["register-device", "refresh-apps"])
        #expect(try loop.changingCalls() == ["POST /v1/devices", "POST /v1/profiles", "POST /v1/profiles"])
        #expect(try loop.apple.problems() == [])

        let releases = try loop.releases()
        #expect(releases.count == 2)
        let resigned = try #require(releases.first)
        let id = try #require(resigned["id"] as? Int)
        #expect(resigned["resignedFrom"] as? Int == 1)
        #expect(releases.last?["supersededBy"] as? Int == id, "the original is superseded and still listed with --all")
        #expect(try loop.releases(all: false).compactMap { $0["id"] as? Int } == [id], "one entry per version by default")

        // The tester's page offers the re-signed build, not the original.
        let page = try await server.fetch("\(server.base)/t/\(loop.fixture.annToken)", ["-A", WebFixture.iPhone])
        #expect(page.text.contains("/releases/\(id)/"))
        #expect(!page.text.contains("/releases/1/"))
        let inFlight = try await server.fetch("\(server.base)/t/\(loop.fixture.annToken)/releases/1/app.ipa", ["-A", WebFixture.iPhone, "-r", "0-99"])
        #expect(inFlight.status == 206, "the superseded build stays downloadable for downloads already in flight")
        #expect(try loop.cli.ok(["show-release", "1"]).contains("superseded    by release \(id)"))
        #expect(page.text.contains("Ready: installs"), "the device row says the build installs on it")
        #expect(!page.text.contains("http-equiv=\"refresh\""), "nothing pending: no reload")
        // Its ipa verifies and its embedded profile lists the device.
        let work = try TemporaryDirectory("loop-ipa")
        let ipa = work.child("app.ipa")
        let download = try await server.fetch("\(server.base)/t/\(loop.fixture.annToken)/releases/\(id)/app.ipa", ["-A", WebFixture.iPhone])
        #expect(download.status == 200)
        try download.body.write(to: URL(fileURLWithPath: ipa))
        let checked = try loop.cli.run(["check-signature", ipa])
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(try runToolNow("unzip", ["-q", ipa, "-d", work.child("x")]).status == 0)
        let profile = try runToolNow("openssl", ["cms", "-verify", "-noverify", "-inform", "DER", "-in", work.child("x/Payload/Beta.app/embedded.mobileprovision")])
        #expect(profile.text.contains(Self.udid), "the embedded profile provisions the enrolled device")
        if PythonOracles.isInstalled {
            let script = Repository.root.appendingPathComponent("Tests/Clients/check_code_signature.py").path
            let app = work.child("x/Payload/Beta.app")
            let independent = try runToolNow(PythonOracles.python, [script, app + "/Beta", app + "/Info.plist", app + "/_CodeSignature/CodeResources"])
            #expect(independent.status == 0, "\(independent.text) \(independent.error)")
        }
    }

    @Test(arguments: [("POST", "/v1/devices"), ("DELETE", "/v1/profiles/"), ("POST", "/v1/profiles")])
    func killedRightAfterAppleActedTheRestartedServerFinishesWithoutRepeatingIt(method: String, path: String) async throws {
        // One profile betactl made before, so regeneration deletes it first.
        let loop = try await Loop.make(["hold": [["method": method, "path": path]],
                                        "profiles": [["name": "betactl com.example.beta 2026-01-01 10:00", "bundle_id": "com.example.beta"]]])
        let first = try await loop.fixture.serve()
        _ = try await loop.enrol(first)
        let held = loop.apple.directory.child("state/held")
        let deadline = Date().addingTimeInterval(240)
        while !FileManager.default.fileExists(atPath: held), Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(FileManager.default.fileExists(atPath: held), "the server saw \(method) \(path)")
        // Meanwhile the tester's page says where things stand, and reloads itself.
        let meanwhile = try await curl("\(first.base)/t/\(loop.fixture.annToken)", ["-A", WebFixture.iPhone])
        #expect(meanwhile.text.contains(path == "/v1/devices" ? "Being registered with Apple…" : "Preparing your build…"))
        #expect(meanwhile.text.contains("<meta http-equiv=\"refresh\" content=\"10\">"))
        // Apple acted; betactl never hears back.
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.process.wait(timeout: 30)
        _ = FileManager.default.createFile(atPath: loop.apple.directory.child("state/release"), contents: Data())

        let second = try await loop.fixture.serve()
        defer { second.stop() }
        let jobs = try await loop.finished(atLeast: 2)
        #expect(jobs.allSatisfy { $0["state"] as? String == "succeeded" }, "\(jobs)")
        let changing = try loop.changingCalls()
        #expect(changing.filter { $0 == "POST /v1/devices" }.count == 1, "\(changing)")
        #expect(changing.filter { $0.hasPrefix("DELETE /v1/profiles/") }.count == 1, "\(changing)")
        #expect(changing.filter { $0 == "POST /v1/profiles" }.count == 2, "\(changing)")
        #expect(try loop.apple.problems() == [])
        #expect(try loop.releases(all: false).count == 1)
        #expect(try loop.releases().count == 2, "one re-signed release")
    }

    @Test func killedRightAfterTheReSignedBuildWasPublishedTheRestartedServerAdoptsIt() async throws {
        let loop = try await Loop.make()
        // The job stops (BETACTL_JOB_PAUSE, for tests only) once the re-signed build is published and before it is recorded.
        let first = try await loop.fixture.serve(environment: ["BETACTL_JOB_PAUSE": "published"])
        _ = try await loop.enrol(first)
        let deadline = Date().addingTimeInterval(240)
        while try loop.releases().count < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try loop.jobs().first { $0["kind"] as? String == "refresh-apps" }?["state"] as? String == "running")
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.process.wait(timeout: 30)

        let second = try await loop.fixture.serve()
        defer { second.stop() }
        let jobs = try await loop.finished(atLeast: 2)
        #expect(jobs.allSatisfy { $0["state"] as? String == "succeeded" }, "\(jobs)")
        #expect(try loop.changingCalls() == ["POST /v1/devices", "POST /v1/profiles", "POST /v1/profiles"], "nothing at Apple twice")
        let releases = try loop.releases()
        #expect(releases.count == 2, "the build published before the kill is adopted, not signed again")
        #expect(releases.last?["supersededBy"] as? Int == releases.first?["id"] as? Int, "and it supersedes the original")
        #expect(try loop.releases(all: false).count == 1)
    }

    @Test func tenEnrolmentsWithinTheWindowGiveOneRegenerationAndOneReSign() async throws {
        let loop = try await Loop.make()
        // A long window: every enrolment lands in the open batch, closed by hand once all are in.
        try loop.cli.ok(["apple", "auto", "status", "--window", "3600"])
        let server = try loop.fixture.inProcess { $0.enrollment.setRate(0) }
        defer { server.stop() }
        let udids = (1 ... 10).map { String(format: "00008120-%016X", 0xA0 + $0) }
        for udid in udids { _ = try await loop.enrol(server, udid: udid) }
        let deadline = Date().addingTimeInterval(240)
        var batch: [String: Any]?
        while Date() < deadline {
            let jobs = try loop.jobs()
            if jobs.filter({ $0["kind"] as? String == "register-device" && $0["state"] as? String == "succeeded" }).count == 10 {
                batch = jobs.first { $0["kind"] as? String == "refresh-apps" }
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let waiting = try #require(batch)
        #expect(waiting["state"] as? String == "waiting")
        #expect(try loop.jobs().filter { $0["kind"] as? String == "refresh-apps" }.count == 1, "one batch")
        try loop.cli.ok(["jobs", "retry", String(try #require(waiting["id"] as? Int))])
        _ = try await loop.finished(atLeast: 11)
        let changing = try loop.changingCalls()
        #expect(changing.filter { $0 == "POST /v1/devices" }.count == 10)
        #expect(changing.filter { $0 == "POST /v1/profiles" }.count == 2, "one regeneration: the app and its widget")
        #expect(try loop.releases().count == 2, "one re-sign")
    }
}
