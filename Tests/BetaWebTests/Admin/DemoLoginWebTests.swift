import Foundation
import Testing
import TestSupport
@testable import BetaKit
import BetaServer
@testable import BetaWeb

/// The demo's dashboard link at the web layer: it sets a session cookie once, refuses a second
/// use with a page that says why, and never reaches the access log.
@Suite struct DemoLoginWebTests {
    static func open(_ app: BetaWebApplication, key: String) async throws -> Response {
        var request = Request(method: .get, target: "/admin/login/demo/\(key)", headers: ["Host": "127.0.0.1:8080"], peerAddress: "127.0.0.1")
        request.parameters = ["key": key]
        return try await app.admin.demoLogin(request)
    }

    static func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theLinkLogsInOnceAndASecondUseIsRefusedSayingWhy() async throws {
        let directory = try TemporaryDirectory("demo-login")
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(isDemo: true), now: Date()).home
        let key = try DemoLogin(home: home).mint(now: Date())
        let app = try BetaWebApplication(home: home, configuration: WebConfiguration())
        defer { app.stop() }
        let first = try await Self.open(app, key: key)
        #expect(first.status.code == 303 && first.headers["Location"] == "/admin")
        let cookie = try #require(first.headers.values("Set-Cookie").first { $0.hasPrefix("betactl_session=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/admin"))
        let id = String(cookie.dropFirst("betactl_session=".count).prefix { $0 != ";" })
        #expect(try AdminSessions(home: home).session(id: id, now: Date())?.token.name == "demo")

        let again = try await Self.open(app, key: key)
        #expect(again.status == .unauthorized)
        #expect(Self.text(again).contains("That demo login link has been used already (it works once)"))
        #expect(!again.headers.values("Set-Cookie").contains { $0.hasPrefix("betactl_session=") })
        withExtendedLifetime(directory) {}
    }

    @Test func aRealHomeHasNoDemoLinkAndTheKeyNeverReachesTheLog() async throws {
        let directory = try TemporaryDirectory("demo-login")
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: Date()).home
        let app = try BetaWebApplication(home: home, configuration: WebConfiguration())
        defer { app.stop() }
        let refused = try await Self.open(app, key: InviteToken.make())
        #expect(refused.status == .unauthorized && Self.text(refused).contains("or this server is not a demo sandbox"))
        #expect(BetaWebApplication.redactTarget("/admin/login/demo/SECRETKEY") == "/admin/login/demo/…")
        #expect(BetaWebApplication.redactTarget("/admin/login?next=%2Fadmin") == "/admin/login?next=%2Fadmin")
        withExtendedLifetime(directory) {}
    }
}
