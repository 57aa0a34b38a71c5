import Foundation
import Testing
import TestSupport

/// The dashboard in real headless Chromium at phone width: log in, add a tester, upload a release
/// through the form (its script shows the progress), see it listed, and have a form without its
/// CSRF token refused, then follow the crash pages' links down to a crash's frames; every page
/// fits the phone's width and raises no console error.
@Suite(.serialized, .enabled(if: Browser.available, "needs chromium, chromium-driver and selenium (.ci/install-deps --test)"))
struct AdminBrowserTests {
    @Test func aPersonLogsInAddsATesterUploadsAReleaseAndAFormWithoutItsTokenIsRefused() async throws {
        let fixture = try await AdminFixture.make()
        // Ann's crash, with its dSYM archived: the crash pages have frames to show.
        try await blocking {
            try fixture.cli.ok(["add-crash", LocalFixtures.url("symbols/crashes/App-309.ips").path, "--tester", "ann@example.com"])
            try fixture.cli.ok(["add-symbols", LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path])
        }
        let server = try await fixture.serve()
        defer { server.stop() }
        let files = try TemporaryDirectory("browser")
        let build = files.child("Nightly.ipa")
        let made = try await runTool("python3", [Repository.root.appendingPathComponent("Tests/Clients/make_big_ipa.py").path,
                                                 WebFixture.app("Beta.ipa"), build, "24"])
        #expect(made.status == 0, "\(made.error)")
        let script = Repository.root.appendingPathComponent("Tests/Clients/admin_browser.py").path
        let result = try await runTool(PythonOracles.python, [script, server.base, fixture.write, build, WebFixture.app("Beta.app.dSYM.zip"),
                                                              files.path], timeout: 900)
        #expect(result.status == 0, "admin_browser.py failed: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect((report["loginURL"] as? String)?.hasSuffix("/admin/login?next=%2Fadmin") == true)
        #expect(report["afterLogin"] as? String == "\(server.base)/admin")
        #expect(report["testerPage"] as? String == "\(server.base)/admin/testers/3?notice=tester-added")
        let link = try #require(report["testerLink"] as? String)
        #expect(try await curl(link).text.contains("Hi Selenium Sam"), "the link the page shows is the tester's")
        #expect(report["copyButtonShown"] as? Bool == true)
        #expect(report["releasePage"] as? String == "\(server.base)/admin/releases/4?notice=release-published")
        #expect(report["releaseHeading"] as? String == "Beta Fixtures 1.2.3 (45)")
        #expect((report["listedReleases"] as? [String])?.first == "release-4")
        let progress = try #require(report["progressValues"] as? [Int], "the progress bar was shown")
        #expect(progress.contains { $0 > 0 }, "the progress bar moved: \(progress)")
        #expect((report["csrfRefusal"] as? String)?.contains("not sent from this dashboard page") == true)
        #expect(report["testersAfterRefusal"] as? [String] == ["Ann Lee", "Bo Chen", "Selenium Sam"])
        let released = try #require(try cliJSON(fixture.cli, "show-release", "4", "--json") as? [String: Any])
        #expect(released["notes"] as? String == "Uploaded from the dashboard" && released["groups"] as? [String] == ["qa"])
        #expect((report["crashGroupPage"] as? String)?.hasPrefix("\(server.base)/admin/crashes/groups/") == true)
        #expect(report["crashPage"] as? String == "\(server.base)/admin/crashes/1")
        let functions = (report["crashFunctions"] as? [String]) ?? []
        #expect(functions.first?.contains("clamp_digit") == true && functions.first?.contains("inline.h:6") == true, "\(functions)")
        #expect(report["rawLink"] as? String == "\(server.base)/admin/crashes/1/raw")
        let pages = try #require(report["pages"] as? [String: [String: Any]])
        #expect(pages.count == 12)
        for (name, page) in pages {
            #expect(page["scrollWidth"] as? Int == page["viewportWidth"] as? Int, "\(name) is wider than the phone: \(page)")
            #expect(page["stylesheetApplied"] as? Bool == true, "\(name)")
            let shot = try Data(contentsOf: URL(fileURLWithPath: files.child("\(name).png")))
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        // The one expected error is the refused form's 403.
        #expect((report["console"] as? [String])?.filter { !$0.contains("/admin/testers - Failed to load resource: the server responded with a status of 403") } == [],
                "no console errors (a CSP violation would be one): \(report["console"] ?? "")")
        withExtendedLifetime(files) {}
    }
}
