import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A newcomer's first minute, in real headless Chromium at phone width (375 px): `betactl demo`
/// prints a dashboard link, the link logs in (once), and every dashboard page shows what the demo
/// seeded and fits the phone's width. Screenshots of each page go to a temporary folder
/// (or to BETACTL_DEMO_SCREENSHOTS, kept).
@Suite(.serialized, .enabled(if: Browser.available, "needs chromium, chromium-driver and selenium (.ci/install-deps --test)"))
struct DemoBrowserTests {
    /// What each page must show when the demo's seed is there.
    static let seeded: [String: [String]] = [
        "overview": ["Beta Fixtures 1.2.3 (45)", "clamp_digit"],
        "testers": ["Ann Lee", "Bo Chen", "Cy Okafor"],
        "devices": ["Ann's iPhone", "Cy's new iPhone"],
        "releases": ["Beta Fixtures"],
        "profiles": ["Beta Ad Hoc"],
        "profile": ["Beta Ad Hoc"],
        "symbols": ["App"],
        "crashes": ["EXC_BAD_ACCESS"],
        "webhooks": ["http://127.0.0.1:9/demo-webhook"],
        "tester": ["Ann Lee", "Ann's iPhone"],
        "release": ["Beta Fixtures", "The launch crash is fixed."],
    ]

    @Test func theDemoLinkLogsInOnceAndEveryDashboardPageShowsSeededContentWithinAPhoneWidth() async throws {
        let directory = try TemporaryDirectory("demo-browser")
        let cli = Betactl(home: directory.child("unused"))
        // The demo seeds its sandbox (two releases, symbolicated crashes) before it listens: on a busy
        // machine that takes a while, so the waits are generous.
        let demo = try await ServeProcess.start(cli, ["demo", "--dir", directory.child("sandbox"), "--listen", "127.0.0.1:0"], timeout: 300)
        defer { demo.stop() }
        try await waitUntil("the dashboard link is printed", seconds: 300) { demo.outputLines.contains { $0.contains("/admin/login/demo/") } }
        let link = try #require(demo.outputLines.first { $0.contains("/admin/login/demo/") }).trimmingCharacters(in: .whitespaces)
        #expect(link.hasPrefix(demo.base + "/admin/login/demo/"))

        // BETACTL_DEMO_SCREENSHOTS=DIR keeps the screenshots to look at; otherwise they go with the test.
        let scratch = try TemporaryDirectory("demo-screenshots")
        let shots = ProcessInfo.processInfo.environment["BETACTL_DEMO_SCREENSHOTS"].flatMap { $0.isEmpty ? nil : $0 } ?? scratch.path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let script = Repository.root.appendingPathComponent("Tests/Clients/demo_browser.py").path
        let result = try await runTool(PythonOracles.python, [script, demo.base, link, shots], timeout: 900)
        #expect(result.status == 0, "demo_browser.py failed: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(report["afterLogin"] as? String == "\(demo.base)/admin")
        #expect(report["loggedIn"] as? Bool == true)
        let pages = try #require(report["pages"] as? [String: [String: Any]])
        let order = (report["order"] as? [String]) ?? []
        // The navigation's eight pages, a tester, a release, a profile, the crash groups and every crash report.
        for name in ["overview", "testers", "devices", "releases", "profiles", "symbols", "crashes", "webhooks", "tester", "release", "profile"] {
            #expect(pages[name] != nil, "\(name) was not visited: \(order)")
        }
        #expect(order.filter { $0.hasPrefix("crash-group-") }.count >= 2, "the symbolicated group and the others: \(order)")
        #expect(order.filter { $0.range(of: #"^crash-[0-9]+$"#, options: .regularExpression) != nil }.count == 4, "\(order)")
        for (name, page) in pages {
            let text = page["text"] as? String ?? ""
            for expected in Self.seeded[name] ?? [] {
                #expect(text.contains(expected), "\(name) does not show \(expected)")
            }
            // The empty states a page shows when nothing was seeded ("No testers yet.", "No crashes yet. …").
            let empty = (page["empty"] as? [String] ?? []).filter { ($0.hasPrefix("No ") && $0 != "No process was killed.") || $0.hasPrefix("Nothing archived") }
            #expect(empty.isEmpty, "\(name) shows an empty state: \(empty)")
            let viewport = page["viewportWidth"] as? Int ?? 0
            #expect(viewport == 375, "\(name) widened the phone's viewport to \(viewport) px: \(page["overflowing"] ?? "")")
            #expect((page["scrollWidth"] as? Int ?? .max) <= viewport, "\(name) is wider than the phone: \(page["scrollWidth"] ?? "?") px")
            #expect((page["overflowing"] as? [String] ?? ["?"]).isEmpty, "\(name): \(page["overflowing"] ?? "")")
            #expect(page["stylesheetApplied"] as? Bool == true, "\(name)")
            let shot = try Data(contentsOf: URL(fileURLWithPath: shots + "/\(name).png"))
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name).png")
        }
        let crashTexts = pages.filter { $0.key.range(of: #"^crash-[0-9]+$"#, options: .regularExpression) != nil }.map { $0.value["text"] as? String ?? "" }
        #expect(crashTexts.contains { $0.contains("clamp_digit") }, "a crash shows symbolicated frames")
        #expect(crashTexts.contains { $0.contains("These app images have no archived symbols") }, "a crash waits for symbols")
        #expect(crashTexts.contains { $0.localizedCaseInsensitiveContains("memory") }, "a low-memory report")
        #expect((report["console"] as? [String]) == [], "no console errors: \(report["console"] ?? "")")

        // The link worked once: opened again, it is refused and the login page says why.
        let again = try await curl(link)
        #expect(again.status == 401)
        #expect(again.text.contains("has been used already"))
        #expect(again.headers["set-cookie"]?.contains("betactl_session=") != true)
        withExtendedLifetime(scratch) {}
        kill(demo.process.processIdentifier, SIGINT)
        #expect(demo.stop() == 0)
    }
}
