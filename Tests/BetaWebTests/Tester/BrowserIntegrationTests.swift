import Foundation
import Testing
import TestSupport

/// The tester pages in real headless Chromium (Debian's chromium and chromium-driver, Selenium from
/// PyPI), as an iPhone with touch emulation, as iPadOS behind its Mac user agent, and as a desktop.
@Suite(.serialized, .enabled(if: Browser.available, "needs chromium, chromium-driver and selenium (.ci/install-deps --test)"))
struct BrowserIntegrationTests {
    /// Opens each page in `mode` (iphone, ipad or desktop), all in one Chromium (starting it costs
    /// more than a visit), and returns what each showed; every page must load its stylesheet,
    /// log no console error (a CSP violation would be one) and give a screenshot.
    func open(_ visits: [(url: String, mode: String)]) async throws -> [[String: Any]] {
        let shots = try TemporaryDirectory("screens")
        let script = Repository.root.appendingPathComponent("Tests/Clients/browser_pages.py").path
        let arguments = visits.enumerated().flatMap { index, visit in [visit.url, visit.mode, shots.child("\(index)-\(visit.mode).png")] }
        let result = try await runTool(PythonOracles.python, [script] + arguments, timeout: 300)
        #expect(result.status == 0, "browser_pages.py failed: \(result.error)")
        let reports = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]])
        try #require(reports.count == visits.count, "one report per page")
        for (index, (visit, report)) in zip(visits, reports).enumerated() {
            let shot = try Data(contentsOf: URL(fileURLWithPath: shots.child("\(index)-\(visit.mode).png")))
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a screenshot was taken of \(visit.url) as \(visit.mode)")
            #expect((report["console"] as? [String]) == [], "no console errors on \(visit.url) as \(visit.mode): \(report["console"] ?? "")")
            #expect(report["stylesheetApplied"] as? Bool == true, "\(visit.url) as \(visit.mode)")
        }
        return reports
    }

    /// An iPhone sees the install link in its exact form and nothing wider than its screen; an
    /// iPhone missing from the profile is told why; a desktop sees the QR code; an iPad behind
    /// its Mac user agent leads with install, and is told when it is missing from the profile.
    @Test func iPhonesIPadsAndDesktopsEachSeeTheirFormOfTheTesterPage() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        // Bo's iPad is added in a second home, so the iPhone and desktop visits see the roster without it.
        let withIPad = try await WebFixture.make()
        try withIPad.cli.ok("add-device", "bo@example.com", "00008120-0000000000000F06", "--model", "iPad14,3", "--name", "Bo's iPad")
        let iPadServer = try await withIPad.serve()
        defer { iPadServer.stop() }
        let reports = try await open([
            ("\(server.base)/t/\(fixture.annToken)", "iphone"),
            ("\(server.base)/t/\(fixture.boToken)", "iphone"),
            ("\(server.base)/t/\(fixture.annToken)", "desktop"),
            ("\(iPadServer.base)/t/\(withIPad.annToken)", "ipad"),
            ("\(iPadServer.base)/t/\(withIPad.boToken)", "ipad"),
        ])
        guard reports.count == 5 else { return }

        // An iPhone sees the install link in its exact form.
        let ann = reports[0]
        let manifest = "\(server.base)/t/\(fixture.annToken)/releases/2/manifest.plist"
        let encoded = try #require(manifest.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))))
        let hrefs = try #require(ann["installHrefs"] as? [String])
        #expect(hrefs.first == "itms-services://?action=download-manifest&url=\(encoded)")
        #expect(hrefs.count == 2)
        #expect(ann["qrVisible"] as? Bool == false)
        #expect(ann["pageWidth"] as? Int == ann["viewportWidth"] as? Int, "nothing is wider than the phone's screen")
        #expect((ann["userAgent"] as? String)?.contains("iPhone") == true)

        // An iPhone missing from the profile is told why.
        let bo = reports[1]
        #expect((bo["installHrefs"] as? [String]) == [])
        #expect(bo["disabledInstalls"] as? Int == 1)
        let reasons = try #require(bo["reasons"] as? [String])
        #expect(reasons.first?.contains("“Bo's iPhone” is not in this build's provisioning profile") == true)

        // A desktop sees the QR code.
        let desktop = reports[2]
        #expect(desktop["qrVisible"] as? Bool == true)
        #expect(desktop["qrLoaded"] as? Bool == true)
        #expect((desktop["bodyClasses"] as? String)?.contains("client-other") == true)

        // An iPad behind a Mac user agent leads with install, and is told when it is missing.
        let annIPad = reports[3]
        #expect((annIPad["bodyClasses"] as? String)?.contains("is-ipad") == true)
        #expect(annIPad["qrVisible"] as? Bool == false)
        #expect((annIPad["installHrefs"] as? [String])?.count == 2)
        let boIPad = reports[4]
        #expect((boIPad["installHrefs"] as? [String]) == [])
        #expect((boIPad["reasons"] as? [String])?.first?.contains("“Bo's iPad” is not in this build's provisioning profile") == true)
    }
}

/// Whether headless Chromium can be driven here.
enum Browser {
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") && PythonOracles.isInstalled
    }
}

/// The browser tests skip rather than fail one by one when the tools are missing; this one fails, so
/// a machine without them is noticed instead of passing quietly.
@Suite struct BrowserToolsTests {
    @Test func chromiumAndSeleniumAreInstalledByInstallDeps() {
        #expect(Browser.available, "headless Chromium cannot be driven here; run .ci/install-deps --test")
    }
}
