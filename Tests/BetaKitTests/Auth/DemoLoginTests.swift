import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// The demo's dashboard link: one use, in a demo sandbox only, its key never stored.
@Suite struct DemoLoginTests {
    static func home(demo: Bool) throws -> (TemporaryDirectory, Home) {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(isDemo: demo), now: at("2026-11-21T10:00:00Z")).home
        return (directory, home)
    }

    @Test func theLinkOpensAnAdminSessionOnceAndItsKeyIsNeverStored() throws {
        let (directory, home) = try Self.home(demo: true)
        let login = DemoLogin(home: home)
        let key = try login.mint(now: at("2026-11-21T10:00:00Z"))
        let opened = try #require(try login.redeem(key: key, now: at("2026-11-21T10:05:00Z")))
        #expect(opened.session.token.name == "demo" && opened.session.token.scope == .admin)
        let live = try #require(try AdminSessions(home: home).session(id: opened.id, now: at("2026-11-21T10:06:00Z")))
        #expect(live.token.id == opened.session.token.id)
        #expect(try login.redeem(key: key, now: at("2026-11-21T10:06:00Z")) == nil, "a used link does not log in again")
        let database = try Data(contentsOf: URL(fileURLWithPath: home.store.path))
        #expect(database.range(of: Data(key.utf8)) == nil)
        withExtendedLifetime(directory) {}
    }

    @Test func aNewLinkReplacesAnUnusedOneAndSessionsShareTheDemoToken() throws {
        let (directory, home) = try Self.home(demo: true)
        let login = DemoLogin(home: home)
        let first = try login.mint(now: at("2026-11-21T10:00:00Z"))
        let second = try login.mint(now: at("2026-11-21T10:01:00Z"))
        #expect(try login.redeem(key: first, now: at("2026-11-21T10:02:00Z")) == nil)
        let opened = try #require(try login.redeem(key: second, now: at("2026-11-21T10:02:00Z")))
        let again = try #require(try login.redeem(key: try login.mint(now: at("2026-11-21T10:03:00Z")), now: at("2026-11-21T10:03:00Z")))
        #expect(again.session.token.id == opened.session.token.id)
        #expect(try AccessTokens(home: home).list().map(\.name) == ["demo"])
        for wrong in ["", "x", String(second.dropLast()) + (second.hasSuffix("A") ? "B" : "A"), String(repeating: "a", count: 5000)] {
            #expect(try login.redeem(key: wrong, now: at("2026-11-21T10:04:00Z")) == nil)
        }
        withExtendedLifetime(directory) {}
    }

    @Test func aHomeThatIsNotADemoHasNoLink() throws {
        let (directory, home) = try Self.home(demo: false)
        let login = DemoLogin(home: home)
        #expect(throws: DemoLoginError.notADemo(home.path)) { try login.mint(now: at("2026-11-21T10:00:00Z")) }
        // A key planted in the settings by hand still does nothing outside a demo.
        let key = InviteToken.make()
        try home.store.write { db in
            try db.query("INSERT INTO settings (key, value) VALUES (?, ?)", [.text(DemoLogin.settingKey), .text(AccessTokens.digest(key))])
        }
        #expect(try login.redeem(key: key, now: at("2026-11-21T10:00:00Z")) == nil)
        #expect(try AccessTokens(home: home).list().isEmpty)
        withExtendedLifetime(directory) {}
    }
}
