import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `betactl demo` seeds a sandbox and serves it at once, as the README's first command promises.
@Suite(.serialized) struct DemoIntegrationTests {
    @Test func theDemoServesItsSeededSandboxAndStopsOnCtrlC() async throws {
        let directory = try TemporaryDirectory("demo")
        let cli = Betactl(home: directory.child("unused"))
        let demo = try await ServeProcess.start(cli, ["demo", "--dir", directory.child("sandbox"), "--listen", "127.0.0.1:0"], timeout: 300)
        // Printed as soon as it listens; a busy machine may still be slow to run it, so the wait is generous.
        try await waitUntil("the tester URLs are printed", seconds: 300) { demo.outputLines.contains { $0.contains("Bo Chen") } }
        #expect(demo.outputLines.contains { $0.contains("Bo Chen") },
                "stdout: \(demo.outputLines.joined(separator: "\n"))\nstderr: \(demo.errorLines.suffix(20).joined(separator: "\n"))")
        let urls = demo.outputLines.compactMap { line -> (String, String)? in
            guard let range = line.range(of: "http://") else { return nil }
            return (line[..<range.lowerBound].trimmingCharacters(in: .whitespaces), String(line[range.lowerBound...]))
        }.filter { $0.1.contains("/t/") }
        #expect(urls.map(\.0) == ["Ann Lee", "Bo Chen", "Cy Okafor"])
        #expect(urls.allSatisfy { $0.1.hasPrefix(demo.base + "/t/") })
        let ann = try await curl(urls[0].1, ["-A", WebFixture.iPhone])
        #expect(ann.status == 200)
        // The qa build with icon, notes and dSYMs is offered to Ann; the revoked first build is not shown.
        #expect(ann.text.contains("id=\"release-2\"") && !ann.text.contains("id=\"release-1\""))
        #expect(ann.text.contains("/releases/2/icon.png"))
        #expect(ann.text.contains("href=\"https://example.com/beta/feedback\""))
        #expect(ann.text.contains("class=\"button install\" href=\"itms-services://"))
        let revoked = try await curl(urls[0].1 + "/releases/1")
        #expect(revoked.status == 410)
        // Bo's iPhone was registered after the build was made.
        let bo = try await curl(urls[1].1, ["-A", WebFixture.iPhone])
        #expect(bo.text.contains("is not in this build&#39;s provisioning profile"))
        let symbols = try Betactl(home: directory.child("sandbox")).ok("symbols", "--json")
        #expect(!symbols.contains("\"missing\" : [\n    {"), "the demo release's dSYMs are archived")
        // The crash pages have something to show: a group of two testers' reports, one waiting for symbols, a low-memory one.
        let sandbox = Betactl(home: directory.child("sandbox"))
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(try sandbox.ok("crashes", "--json").utf8)) as? [String: Any])
        let crashes = try #require(listing["reports"] as? [[String: Any]])
        #expect(crashes.compactMap { $0["status"] as? String }.sorted() == ["low-memory", "partial", "symbolicated", "symbolicated"])
        let symbolicated = crashes.filter { $0["status"] as? String == "symbolicated" }
        #expect(Set(symbolicated.compactMap { $0["group"] as? String }).count == 1, "one group: \(symbolicated)")
        #expect(Set(symbolicated.compactMap { ($0["tester"] as? [String: Any])?["name"] as? String }) == ["Ann Lee", "Bo Chen"])
        #expect(try sandbox.ok("requests").contains("Cy's new iPhone"))
        // The dashboard link logs in once.
        let link = try #require(demo.outputLines.first { $0.contains("/admin/login/demo/") }).trimmingCharacters(in: .whitespaces)
        #expect(link.hasPrefix(demo.base + "/admin/login/demo/"))
        let jar = directory.child("cookies")
        let login = try await curl(link, ["-c", jar])
        #expect(login.status == 303 && login.headers["location"] == "/admin")
        let dashboard = try await curl(demo.base + "/admin", ["-b", jar])
        #expect(dashboard.status == 200 && dashboard.text.contains("class=\"admin-nav\""), "the session cookie opens the dashboard")
        #expect(try await curl(link).status == 401)
        kill(demo.process.processIdentifier, SIGINT)
        #expect(demo.stop() == 0)
        #expect(demo.errorLines.contains { $0.contains("server stopped") })
    }

    @Test func noServeOnlySeedsAndDemoRefusesAHomeItDidNotMake() throws {
        let directory = try TemporaryDirectory("demo")
        let cli = Betactl(home: directory.child("unused"))
        let seeded = try cli.run("demo", "--dir", directory.child("sandbox"), "--no-serve")
        #expect(seeded.status == 0)
        #expect(seeded.stdout.contains("/t/"))
        // Running it again reuses the sandbox without seeding twice.
        #expect(try cli.run("demo", "--dir", directory.child("sandbox"), "--no-serve").status == 0)
        #expect(try Betactl(home: directory.child("sandbox")).ok("testers").components(separatedBy: "Ann Lee").count == 2)
        let real = Betactl(home: directory.child("real"))
        try real.ok("init")
        let refused = try cli.run("demo", "--dir", directory.child("real"), "--no-serve")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("that `demo` did not make"))
        #expect(try real.ok("testers").contains("No testers"))
    }
}
