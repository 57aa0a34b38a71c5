import Foundation
import Testing
import TestSupport

/// The tester pages in real headless Chromium (Debian's chromium and chromium-driver, Selenium from
/// PyPI), as an iPhone with touch emulation, as iPadOS behind its Mac user agent, and as a desktop.
@Suite(.serialized, .enabled(if: Browser.available, "needs chromium, chromium-driver and selenium (.ci/install-deps --test)"))
struct BrowserIntegrationTests {
    func open(_ url: String, as mode: String) async throws -> [String: Any] {
        let shots = try TemporaryDirectory("screens")
        let script = Repository.root.appendingPathComponent("Tests/Clients/browser_pages.py").path
        let result = try await runTool(PythonOracles.python, [script, url, mode, shots.child("\(mode).png")], timeout: 180)
        #expect(result.status == 0, "browser_pages.py failed: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        let shot = try Data(contentsOf: URL(fileURLWithPath: shots.child("\(mode).png")))
        #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a screenshot was taken")
        #expect((report["console"] as? [String]) == [], "no console errors (a CSP violation would be one): \(report["console"] ?? "")")
        #expect(report["stylesheetApplied"] as? Bool == true)
        return report
    }

    @Test func anIPhoneSeesTheInstallLinkInItsExactForm() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let report = try await open("\(server.base)/t/\(fixture.annToken)", as: "iphone")
        let manifest = "\(server.base)/t/\(fixture.annToken)/releases/2/manifest.plist"
        let encoded = try #require(manifest.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))))
        let hrefs = try #require(report["installHrefs"] as? [String])
        #expect(hrefs.first == "itms-services://?action=download-manifest&url=\(encoded)")
        #expect(hrefs.count == 2)
        #expect(report["qrVisible"] as? Bool == false)
        #expect(report["pageWidth"] as? Int == report["viewportWidth"] as? Int, "nothing is wider than the phone's screen")
    }

    @Test func anIPhoneMissingFromTheProfileIsToldWhy() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let report = try await open("\(server.base)/t/\(fixture.boToken)", as: "iphone")
        #expect((report["installHrefs"] as? [String]) == [])
        #expect(report["disabledInstalls"] as? Int == 1)
        let reasons = try #require(report["reasons"] as? [String])
        #expect(reasons.first?.contains("“Bo's iPhone” is not in this build's provisioning profile") == true)
    }

    @Test func aDesktopSeesTheQRCode() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let report = try await open("\(server.base)/t/\(fixture.annToken)", as: "desktop")
        #expect(report["qrVisible"] as? Bool == true)
        #expect(report["qrLoaded"] as? Bool == true)
        #expect((report["bodyClasses"] as? String)?.contains("client-other") == true)
    }

    @Test func anIPadBehindAMacUserAgentLeadsWithInstallAndIsToldWhenItsMissing() async throws {
        let fixture = try await WebFixture.make()
        try fixture.cli.ok("add-device", "bo@example.com", "00008120-0000000000000F06", "--model", "iPad14,3", "--name", "Bo's iPad")
        let server = try await fixture.serve()
        defer { server.stop() }
        let ann = try await open("\(server.base)/t/\(fixture.annToken)", as: "ipad")
        #expect((ann["bodyClasses"] as? String)?.contains("is-ipad") == true)
        #expect(ann["qrVisible"] as? Bool == false)
        #expect((ann["installHrefs"] as? [String])?.count == 2)
        let bo = try await open("\(server.base)/t/\(fixture.boToken)", as: "ipad")
        #expect((bo["installHrefs"] as? [String]) == [])
        #expect((bo["reasons"] as? [String])?.first?.contains("“Bo's iPad” is not in this build's provisioning profile") == true)
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
