import AppleFormats
@testable import BetaKit
import BetaServer
@testable import BetaWeb
import Foundation
import Testing

@Suite struct ReleaseNotesTests {
    @Test func blankLinesSplitParagraphsAndLineBreaksStay() {
        let notes = ReleaseNotes("First line\nsecond line\n\n  \nNext paragraph\r\nwith CRLF")
        #expect(notes.paragraphs == [[[.text("First line")], [.text("second line")]], [[.text("Next paragraph")], [.text("with CRLF")]]])
    }

    @Test func urlsBecomeLinksWithoutTrailingPunctuation() {
        let notes = ReleaseNotes("See https://example.com/a?b=1&c=2. Or (http://x.test/path).")
        #expect(notes.paragraphs == [[[.text("See "), .link("https://example.com/a?b=1&c=2"), .text(". Or ("),
                                        .link("http://x.test/path"), .text(").")]]])
    }

    @Test func htmlInNotesStaysText() {
        let notes = ReleaseNotes("<script>alert(1)</script> javascript:alert(1) xhttp://no")
        #expect(notes.paragraphs == [[[.text("<script>alert(1)</script> javascript:alert(1) xhttp://no")]]])
    }

    @Test func aBareSchemeIsNotALink() {
        #expect(ReleaseNotes("go to https:// now").paragraphs == [[[.text("go to "), .text("https://"), .text(" now")]]])
    }
}

@Suite struct ClientKindTests {
    @Test func iPhoneIPadMacAndDesktopAreToldApart() {
        #expect(ClientKind(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 Version/17.1 Mobile/15E148 Safari/604.1") == .iPhone)
        #expect(ClientKind(userAgent: "Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148") == .iPad)
        #expect(ClientKind(userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.1 Safari/605.1.15") == .macOrIPad)
        #expect(ClientKind(userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36") == .other)
        #expect(ClientKind(userAgent: nil) == .other)
    }

    @Test func inAppBrowsersAreRecognised() {
        #expect(ClientKind.isInAppBrowser("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 MicroMessenger/8.0.43(0x18002b2c) NetType/WIFI Language/zh_CN"))
        #expect(ClientKind.isInAppBrowser("Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 DingTalk/7.0.40"))
        #expect(ClientKind.isInAppBrowser("Mozilla/5.0 (iPhone) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.0]"))
        #expect(!ClientKind.isInAppBrowser("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) Version/17.1 Mobile/15E148 Safari/604.1"))
    }
}

@Suite struct URLSchemeTests {
    @Test func theInstallLinkPercentEncodesTheWholeManifestURL() {
        let manifest = "https://beta.example.com/t/Ab-_9/releases/3/manifest.plist"
        #expect(TesterURLs.installLink(manifest: manifest)
                == "itms-services://?action=download-manifest&url=https%3A%2F%2Fbeta.example.com%2Ft%2FAb-_9%2Freleases%2F3%2Fmanifest.plist")
    }

    @Test func pathsFollowTheFixedScheme() {
        let urls = TesterURLs(base: PublicBase(url: "https://b.example/pre"), token: "TOKEN")
        #expect(urls.page == "https://b.example/pre/t/TOKEN")
        #expect(urls.release(7) == "https://b.example/pre/t/TOKEN/releases/7")
        #expect(urls.manifest(7) == "https://b.example/pre/t/TOKEN/releases/7/manifest.plist")
        #expect(urls.package(7) == "https://b.example/pre/t/TOKEN/releases/7/app.ipa")
        #expect(urls.icon(7) == "https://b.example/pre/t/TOKEN/releases/7/icon.png")
        #expect(urls.qrSVG == "https://b.example/pre/t/TOKEN/qr.svg")
        #expect(urls.qrPNG == "https://b.example/pre/t/TOKEN/qr.png")
    }

    func request(host: String?, scheme: String = "http") -> Request {
        var headers: HTTPHeaders = [:]
        if let host { headers.add("Host", host) }
        var request = Request(method: .get, target: "/t/x", headers: headers)
        request.scheme = scheme
        return request
    }

    @Test func anHTTPSPublicURLWinsOverTheRequest() {
        #expect(PublicBase(request: request(host: "10.0.0.5:8080"), publicURL: "https://beta.example.com").url == "https://beta.example.com")
    }

    @Test func aTrustedProxysHTTPSIsUsedWhenThePublicURLIsPlainHTTP() {
        let base = PublicBase(request: request(host: "beta.lan:8443", scheme: "https"), publicURL: "http://127.0.0.1:8080")
        #expect(base.url == "https://beta.lan:8443")
        #expect(base.isSecure)
    }

    @Test func plainHTTPUsesTheRequestHostAndAnUnusableHostFallsBack() {
        #expect(PublicBase(request: request(host: "192.168.1.20:8080"), publicURL: "http://127.0.0.1:8080").url == "http://192.168.1.20:8080")
        #expect(PublicBase(request: request(host: "evil\"><script>"), publicURL: "http://127.0.0.1:8080").url == "http://127.0.0.1:8080")
        #expect(PublicBase(request: request(host: nil), publicURL: "http://127.0.0.1:8080").url == "http://127.0.0.1:8080")
        #expect(!PublicBase(request: request(host: nil), publicURL: "http://127.0.0.1:8080").isSecure)
    }

    @Test func logsNeverSeeTheToken() {
        #expect(BetaWebApplication.redactTarget("/t/SECRET") == "/t/…")
        #expect(BetaWebApplication.redactTarget("/t/SECRET/releases/3/app.ipa?x=1") == "/t/…/releases/3/app.ipa?x=1")
        #expect(BetaWebApplication.redactTarget("http://host/t/SECRET/qr.png") == "http://host/t/…/qr.png")
        #expect(BetaWebApplication.redactTarget("/assets/app.css") == "/assets/app.css")
    }
}

@Suite struct ManifestTests {
    @Test func theManifestHasApplesShape() throws {
        let manifest = OTAManifest(packageURL: "https://b.example/t/T/releases/1/app.ipa", iconURL: "https://b.example/t/T/releases/1/icon.png",
                                   bundleIdentifier: "com.example.beta", bundleVersion: "1.4", title: "Beta <&> \"App\"")
        let parsed = try PlistValue(parsing: try manifest.xmlBytes())
        let item = try #require(parsed["items"]?.array?.first)
        let assets = try #require(item["assets"]?.array)
        #expect(assets.map { $0["kind"]?.string } == ["software-package", "display-image", "full-size-image"])
        #expect(assets[0]["url"]?.string == "https://b.example/t/T/releases/1/app.ipa")
        #expect(item["metadata"]?["bundle-identifier"]?.string == "com.example.beta")
        #expect(item["metadata"]?["bundle-version"]?.string == "1.4")
        #expect(item["metadata"]?["kind"]?.string == "software")
        #expect(item["metadata"]?["title"]?.string == "Beta <&> \"App\"")
    }

    @Test func withoutAnIconOnlyThePackageIsListed() throws {
        let manifest = OTAManifest(packageURL: "https://b/x.ipa", iconURL: nil, bundleIdentifier: "a.b", bundleVersion: "1", title: "A")
        let parsed = try PlistValue(parsing: try manifest.xmlBytes())
        #expect(parsed["items"]?.array?.first?["assets"]?.array?.count == 1)
    }
}

@Suite struct DownloadTests {
    @Test func theInstallerModelSinglesOutADevice() throws {
        let agent = InstallerAgent(userAgent: "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:281)")
        #expect(agent.model == "iPhone15,2")
        let now = Date()
        let phone = Device(identifier: try DeviceIdentifier("00008030-0000000000000A01"), name: "A", family: .iphone, model: "iPhone15,2",
                           testerID: 1, testerName: "T", addedAt: now, removedAt: nil)
        let pad = Device(identifier: try DeviceIdentifier("00008101-0000000000000B02"), name: "B", family: .ipad, model: "iPad13,4",
                         testerID: 1, testerName: "T", addedAt: now, removedAt: nil)
        let otherPhone = Device(identifier: try DeviceIdentifier("00008030-0000000000000A03"), name: "C", family: .iphone, model: nil,
                                testerID: 1, testerName: "T", addedAt: now, removedAt: nil)
        #expect(agent.device(among: [phone, pad])?.identifier == phone.identifier)
        #expect(agent.device(among: [phone, pad, otherPhone])?.identifier == phone.identifier)
        #expect(InstallerAgent(userAgent: "appstored model/iPhone16,1").device(among: [phone, pad])?.identifier == phone.identifier)
        #expect(InstallerAgent(userAgent: "appstored model/iPhone16,1").device(among: [phone, pad, otherPhone]) == nil)
        #expect(InstallerAgent(userAgent: "Mozilla/5.0 Safari").device(among: [phone]) == nil)
    }

    @Test func onlyAResponseReachingTheLastByteCountsAsADownload() {
        var response = Response(status: .ok)
        #expect(TesterController.coversEnd(response))
        response.status = .partialContent
        response.headers.set("Content-Range", "bytes 100-999/1000")
        #expect(TesterController.coversEnd(response))
        response.headers.set("Content-Range", "bytes 0-99/1000")
        #expect(!TesterController.coversEnd(response))
        response.headers.remove("Content-Range")
        #expect(!TesterController.coversEnd(response))
    }

    @Test func packageFileNamesAreSafe() {
        let release = Release(id: 1, bundleID: "com.x", displayName: "My \"App\"/..", version: "1.0", build: "7", minimumOS: nil,
                              sourceKind: .ipa, sourceName: "a.ipa", packageBlob: HashDigest(bytes: []), iconBlob: nil,
                              profileUUID: nil, profileName: nil, profileType: nil, profileExpiresAt: nil, notes: nil, groups: [],
                              createdAt: Date(), revokedAt: nil)
        #expect(TesterController.packageFileName(release) == "My__App__..-1.0-7.ipa")
    }
}
