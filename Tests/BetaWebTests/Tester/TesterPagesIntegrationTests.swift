import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `betactl serve` run as a separate process and spoken to by curl and Python's urllib, as testers'
/// devices do.
@Suite(.serialized) struct TesterPagesIntegrationTests {
    @Test func anIPhoneGetsItsPageWithTheExactInstallLinkAndSecurityHeaders() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let page = try await server.fetch("\(server.base)/t/\(fixture.annToken)", ["-A", WebFixture.iPhone, "-H", "Accept-Encoding: gzip"])
        #expect(page.status == 200)
        #expect(page.headers["referrer-policy"] == "no-referrer")
        #expect(page.headers["cache-control"] == "private, no-store")
        #expect(page.headers["x-content-type-options"] == "nosniff")
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
        #expect(page.headers["content-encoding"] == nil, "a page carrying a token must not be compressed (BREACH)")
        let manifest = "\(server.base)/t/\(fixture.annToken)/releases/2/manifest.plist"
        let encoded = manifest.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
        #expect(page.text.contains("href=\"itms-services://?action=download-manifest&amp;url=\(encoded)\""))
        #expect(page.text.contains("Hi Ann Lee"))
        #expect(page.text.contains("Ann&#39;s iPhone"))
        // Notes are text with linked URLs, never HTML.
        #expect(page.text.contains("First line &lt;b&gt;bold?&lt;/b&gt;"))
        #expect(page.text.contains("<a href=\"https://example.com/notes\" rel=\"noopener noreferrer nofollow\">https://example.com/notes</a>."))
        // Newest first; the revoked release 3 is gone from the page.
        let two = try #require(page.text.range(of: "id=\"release-2\""))
        let one = try #require(page.text.range(of: "id=\"release-1\""))
        #expect(two.lowerBound < one.lowerBound)
        #expect(!page.text.contains("release-3"))
        #expect(page.text.contains("id=\"insecure\""), "plain http must warn that iOS refuses OTA installs")
    }

    @Test func inAppBrowsersAreToldToOpenSafariAndEveryPageExplainsInstallProblems() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let wechat = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.43 NetType/WIFI"
        let inApp = try await server.fetch("\(server.base)/t/\(fixture.annToken)", ["-A", wechat])
        #expect(inApp.text.contains("id=\"in-app-browser\""))
        #expect(inApp.text.contains("Open in Safari"))
        let safari = try await server.fetch("\(server.base)/t/\(fixture.annToken)", ["-A", WebFixture.iPhone])
        #expect(!safari.text.contains("id=\"in-app-browser\""))
        for symptom in ["Unable to install", "integrity of this app could not be verified", "App Store version is already installed",
                        "profile has expired", "only installs over https"] {
            #expect(safari.text.contains(symptom), "the install help covers \(symptom)")
        }
    }

    @Test func theBinaryServesItsPagesWithNoFilesBesideIt() async throws {
        let fixture = try await WebFixture.make()
        // A copy of the binary alone in an empty folder, started from another empty folder.
        let alone = try TemporaryDirectory("alone")
        let binary = alone.child("betactl")
        try Data(contentsOf: Betactl.executable).write(to: URL(fileURLWithPath: binary))
        chmod(binary, 0o755)
        let elsewhere = try TemporaryDirectory("cwd")
        let errors = Pipe()
        let process = try ChildProcess(binary, ["serve", "--listen", "127.0.0.1:0", "--home", fixture.cli.home],
                                       directory: elsewhere.path, error: .pipe(errors))
        defer { process.stop() }
        var port = 0
        var buffer = ""
        while port == 0 {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += String(decoding: chunk, as: UTF8.self)
            if let range = buffer.range(of: "listening on http://127.0.0.1:") {
                port = Int(buffer[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
        }
        let page = try await curl("http://127.0.0.1:\(port)/t/\(fixture.annToken)")
        #expect(page.status == 200 && page.text.contains("Hi Ann Lee"))
        let css = try await curl("http://127.0.0.1:\(port)/assets/app.css")
        #expect(css.body == (try Data(contentsOf: Repository.root.appendingPathComponent("web/app.css"))))
        withExtendedLifetime((alone, elsewhere)) {}
    }

    @Test func whatIOSDoesInstallsTheExactReleasedBytesWholeAndInRanges() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let report = try await runClient("ios_install.py", ["\(server.base)/t/\(fixture.annToken)", "1"])
        #expect(report["scheme"] as? String == "itms-services")
        #expect(report["action"] as? String == "download-manifest")
        #expect(report["manifestType"] as? String == "text/xml; charset=utf-8")
        let manifest = try #require(report["manifest"] as? [String: Any])
        let item = try #require((manifest["items"] as? [[String: Any]])?.first)
        let metadata = try #require(item["metadata"] as? [String: String])
        #expect(metadata == ["bundle-identifier": "com.example.beta", "bundle-version": "1.2.3", "kind": "software", "title": "Beta Fixtures"])
        let kinds = (item["assets"] as? [[String: String]])?.map { $0["kind"] ?? "" }
        #expect(kinds == ["software-package", "display-image", "full-size-image"])
        let released = try #require(try JSONSerialization.jsonObject(with: Data(fixture.cli.ok("show-release", "1", "--json").utf8)) as? [String: Any])
        let sha = try #require(released["sha256"] as? String)
        #expect(report["wholeSHA256"] as? String == sha)
        #expect(report["rangesSHA256"] as? String == sha)
        let statuses = try #require(report["rangeStatuses"] as? [[Any]])
        #expect(statuses.count == 3 && statuses.allSatisfy { $0.first as? Int == 206 })
        let headers = try #require(report["packageHeaders"] as? [String: String])
        #expect(headers["content-disposition"] == "attachment; filename=\"Beta_Fixtures-1.2.3-45.ipa\"")
        #expect(headers["etag"] != nil)
        // The completed downloads are recorded for Ann and her iPhone (the installer names its model).
        try await waitUntil("the download is recorded") {
            let shown = try fixture.cli.ok("show-release", "1", "--json")
            return shown.contains("\"device\" : \"Ann's iPhone\"") && shown.contains("\"tester\" : \"Ann Lee\"")
        }
    }

    @Test func unknownTokensGetTheSame404AsAnyMissingPage() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let unknown = try await server.fetch("\(server.base)/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        let missing = try await server.fetch("\(server.base)/no/such/page")
        let nested = try await server.fetch("\(server.base)/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/releases/1/app.ipa")
        let truncated = try await server.fetch("\(server.base)/t/\(fixture.annToken.dropLast())")
        for response in [unknown, missing, nested, truncated] {
            #expect(response.status == 404)
            #expect(response.text == missing.text)
            #expect(response.headers["cache-control"] == "private, no-store")
        }
        #expect(!unknown.text.contains("AAAAAAAA"))
    }

    @Test func releaseIdsThatAreNotNumbersGetTheSame404AsAnyMissingPage() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let missing = try await server.fetch("\(server.base)/no/such/page")
        for id in ["abc", "1x", "99999999999999999999", "-"] {
            for path in ["releases/\(id)", "releases/\(id)/manifest.plist", "releases/\(id)/app.ipa", "releases/\(id)/icon.png"] {
                let response = try await server.fetch("\(server.base)/t/\(fixture.annToken)/\(path)")
                #expect(response.status == 404, "\(path)")
                #expect(response.text == missing.text, "\(path)")
                #expect(response.headers["cache-control"] == "private, no-store", "\(path)")
            }
        }
        // A number that names no release offered to Ann is the same page.
        #expect(try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/999").text == missing.text)
    }

    @Test func aRevokedReleaseAnswers410AndAGroupReleaseIsInvisibleToOthers() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        for path in ["releases/3", "releases/3/manifest.plist", "releases/3/app.ipa"] {
            let gone = try await server.fetch("\(server.base)/t/\(fixture.annToken)/\(path)")
            #expect(gone.status == 410, "\(path)")
        }
        let gonePage = try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/3")
        #expect(gonePage.text.contains("This build was withdrawn"))
        // Release 2 is for group qa: Bo (design) neither sees it nor reaches it.
        let boPage = try await server.fetch("\(server.base)/t/\(fixture.boToken)")
        #expect(boPage.text.contains("release-1") && !boPage.text.contains("release-2"))
        for path in ["releases/2", "releases/2/manifest.plist", "releases/2/app.ipa", "releases/2/icon.png"] {
            let hidden = try await server.fetch("\(server.base)/t/\(fixture.boToken)/\(path)")
            #expect(hidden.status == 404, "\(path)")
        }
        let annSees = try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/2")
        #expect(annSees.status == 200)
    }

    @Test func aDeviceMissingFromTheProfileGetsADisabledButtonThatSaysWhy() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let bo = try await server.fetch("\(server.base)/t/\(fixture.boToken)", ["-A", WebFixture.iPhone])
        #expect(bo.text.contains("Your iPhone “Bo&#39;s iPhone” is not in this build&#39;s provisioning profile"))
        #expect(!bo.text.contains("class=\"button install\" href="))
        #expect(bo.text.contains("Not in the profile of 1.2.3 (45): it will install from the next build that includes it"))
        // On a desktop the page cannot know the device, so it shows the QR code and a working link.
        let desktop = try await server.fetch("\(server.base)/t/\(fixture.boToken)", ["-A", WebFixture.desktop])
        #expect(desktop.text.contains("class=\"qr-code\""))
        #expect(desktop.text.contains("class=\"button install\" href=\"itms-services://"))
    }

    @Test func anExpiredProfileDisablesTheButton() async throws {
        let fixture = try await WebFixture.make()
        // The fixture profiles expire on 2099-01-01; the server's clock is moved past that.
        let later = try #require(ISO8601DateFormatter().date(from: "2100-01-01T00:00:00Z"))
        let server = try fixture.inProcess { $0.now = { later } }
        defer { server.stop() }
        let page = try await server.fetch("\(server.base)/t/\(fixture.annToken)", ["-A", WebFixture.iPhone])
        #expect(page.text.contains("Profile expired on 2099-01-01"))
        #expect(page.text.contains("This build&#39;s provisioning profile expired on 2099-01-01"))
        #expect(!page.text.contains("class=\"button install\" href="))
    }

    @Test func settingsChangedWhileServingArePickedUpWithoutARestart() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let before = try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/1/manifest.plist")
        #expect(before.text.contains("<string>\(server.base)/t/"))
        try fixture.cli.ok("init", "--public-url", "https://beta.example.com", "--brand-name", "Acme Beta", "--brand-color", "#ff6600")
        try await waitUntil("the new public URL is used") {
            let after = try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/1/manifest.plist")
            return after.text.contains("<string>https://beta.example.com/t/\(fixture.annToken)/releases/1/app.ipa</string>")
        }
        let page = try await server.fetch("\(server.base)/t/\(fixture.annToken)")
        #expect(page.text.contains("<span class=\"brand\">Acme Beta</span>"))
        #expect(!page.text.contains("id=\"insecure\""))
        let brand = try await server.fetch("https://beta.example.com/assets/brand.css".replacingOccurrences(of: "https://beta.example.com", with: server.base))
        #expect(brand.text.contains("--brand: #ff6600;"))
        // A tester added meanwhile can use their link at once.
        let token = try WebFixture.token(fixture.cli.ok("add-tester", "Cy Okafor", "--json"))
        try await waitUntil("the new tester's page answers") {
            try await server.fetch("\(server.base)/t/\(token)").status == 200
        }
    }

    @Test func aLongWriteInAnotherProcessNeverStallsPageViews() async throws {
        let fixture = try await WebFixture.make()
        // Another process takes the database's write lock and keeps it until the test lets go, as a
        // long `betactl release` would. The server starts meanwhile and serves pages, a manifest and a
        // download; the download's record waits for the lock in the background, never the response.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO settings (key, value) VALUES ('lock_test', 'x') ON CONFLICT (key) DO UPDATE SET value = 'y'")
            print("locked", flush=True)
            sys.stdin.read()
            db.execute("COMMIT")
            """
        // The lock is held until the test closes the locker's standard input.
        let out = Pipe(), release = Pipe()
        let locker = try ChildProcess("python3", ["-c", script, fixture.cli.home + "/betactl.sqlite"], input: .pipe(release), output: .pipe(out))
        defer { try? release.fileHandleForWriting.close(); locker.stop() }
        _ = out.fileHandleForReading.availableData
        let server = try fixture.inProcess()
        defer { server.stop() }
        #expect(try await server.fetch("\(server.base)/t/\(fixture.annToken)/releases/1/app.ipa", ["-A", WebFixture.installer]).status == 200)
        try await Task.sleep(for: .milliseconds(300))
        for path in ["", "/releases/1", "/releases/1/manifest.plist", "/qr.svg"] {
            #expect(try await server.fetch("\(server.base)/t/\(fixture.boToken)\(path)").status == 200)
        }
        #expect(locker.isRunning, "the lock was still held while the pages answered")
        // Once the lock is gone the download is recorded after all.
        try release.fileHandleForWriting.close()
        #expect(await locker.exit() == .exited(0))
        try await waitUntil("the delayed download record lands") {
            try fixture.cli.ok("show-release", "1", "--json").contains("\"tester\" : \"Ann Lee\"")
        }
    }

    @Test func theAccessLogNeverHoldsAToken() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve()
        for path in ["", "/releases/1", "/releases/1/manifest.plist", "/releases/1/app.ipa", "/qr.png", "/releases/99"] {
            _ = try await server.fetch("\(server.base)/t/\(fixture.annToken)\(path)")
        }
        _ = try await server.fetch("\(server.base)/t/\(fixture.annToken)%ZZ")
        #expect(server.stop() == 0)
        let log = server.errorLines.joined(separator: "\n")
        #expect(log.contains("\"GET /t/… HTTP/1.1\" 200"))
        #expect(log.contains("\"GET /t/…/releases/1/app.ipa HTTP/1.1\" 200"))
        #expect(!log.contains(fixture.annToken))
        #expect(!log.contains(String(fixture.annToken.prefix(12))))
    }

    @Test func theQRCodeScansToThePagesOwnURL() async throws {
        let fixture = try await WebFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let png = try await server.fetch("\(server.base)/t/\(fixture.annToken)/qr.png")
        #expect(png.headers["content-type"] == "image/png")
        let directory = try TemporaryDirectory("qr")
        let file = try directory.write("qr.png", Array(png.body))
        let scanned = try await runTool("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file])
        #expect(scanned.text.trimmingCharacters(in: .newlines) == "\(server.base)/t/\(fixture.annToken)")
        withExtendedLifetime(directory) {}
        let svg = try await server.fetch("\(server.base)/t/\(fixture.annToken)/qr.svg")
        #expect(svg.headers["content-type"] == "image/svg+xml")
        #expect(svg.text.hasPrefix("<svg") || svg.text.hasPrefix("<?xml"))
    }

    @Test func brandingOverridesReplaceOneFileAndABrokenTemplateStopsTheStart() async throws {
        let fixture = try await WebFixture.make()
        let templates = try TemporaryDirectory("templates")
        let embedded = try String(contentsOf: Repository.root.appendingPathComponent("Templates/message.html"), encoding: .utf8)
        try templates.write("message.html", Array(embedded.replacingOccurrences(of: "<h1>{{heading}}</h1>", with: "<h1>ACME: {{heading}}</h1>").utf8))
        let web = try TemporaryDirectory("web")
        try web.write("app.css", Array("body { background: hotpink; }\n".utf8))
        let server = try fixture.inProcess { $0.templatesDirectory = templates.path; $0.webDirectory = web.path }
        let missing = try await server.fetch("\(server.base)/nothing")
        #expect(missing.text.contains("<h1>ACME: Nothing here</h1>"))
        let css = try await server.fetch("\(server.base)/assets/app.css")
        #expect(css.text == "body { background: hotpink; }\n")
        let js = try await server.fetch("\(server.base)/assets/app.js")
        #expect(js.body == (try Data(contentsOf: Repository.root.appendingPathComponent("web/app.js"))), "files not overridden stay embedded")
        server.stop()
        try templates.write("tester.html", Array("{{> _head}}\n<p>{{#releases}}{{name}}</p>\n".utf8))
        let refused = try fixture.cli.run("serve", "--listen", "127.0.0.1:0", "--templates", templates.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("tester.html"))
        #expect(refused.stderr.contains("line 2"))
        #expect(refused.stderr.contains("{{#releases}}"))
    }
}

/// Polls `condition` for up to `seconds`, failing the test with `what` if it never holds.
func waitUntil(_ what: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
}
