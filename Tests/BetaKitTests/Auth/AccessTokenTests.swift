import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// API tokens and dashboard sessions in the store: digests only, scopes, revocation, expiry.
@Suite struct AccessTokenTests {
    static func home() throws -> (TemporaryDirectory, Home) {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: at("2026-11-21T10:00:00Z")).home
        return (directory, home)
    }

    @Test func scopesAreOrderedAndEachIncludesTheOnesBefore() {
        #expect(TokenScope.read.allows(.read) && !TokenScope.read.allows(.write) && !TokenScope.read.allows(.admin))
        #expect(TokenScope.write.allows(.read) && TokenScope.write.allows(.write) && !TokenScope.write.allows(.admin))
        #expect(TokenScope.admin.allows(.read) && TokenScope.admin.allows(.write) && TokenScope.admin.allows(.admin))
        #expect(TokenScope.allCases.sorted() == [.read, .write, .admin])
    }

    @Test func aTokenAuthenticatesByItsSecretWhichIsNeverStored() throws {
        let (directory, home) = try Self.home()
        let tokens = AccessTokens(home: home)
        let created = try tokens.create(name: " ci ", scope: .write, now: at("2026-11-21T10:00:00Z"))
        #expect(created.token.name == "ci" && created.token.scope == .write && created.token.lastUsedAt == nil)
        #expect(created.secret.hasPrefix("bct_") && created.secret.count == 47)
        let found = try #require(try tokens.authenticate(secret: created.secret, now: at("2026-11-21T11:00:00Z")))
        #expect(found.id == created.token.id && found.lastUsedAt == at("2026-11-21T11:00:00Z"))
        // A use within the hour is not written again; one later is.
        _ = try tokens.authenticate(secret: created.secret, now: at("2026-11-21T11:30:00Z"))
        #expect(try tokens.list().first?.lastUsedAt == at("2026-11-21T11:00:00Z"))
        _ = try tokens.authenticate(secret: created.secret, now: at("2026-11-21T12:00:01Z"))
        #expect(try tokens.list().first?.lastUsedAt == at("2026-11-21T12:00:01Z"))
        for wrong in ["", "bct_", created.secret + "x", String(created.secret.dropLast()) + (created.secret.hasSuffix("A") ? "B" : "A"), "Bearer " + created.secret,
                      String(repeating: "a", count: 5000), "bct_" + String(repeating: "€", count: 43)] {
            #expect(try tokens.authenticate(secret: wrong, now: at("2026-11-21T12:00:00Z")) == nil, "\(wrong.prefix(20))")
        }
        let database = try Data(contentsOf: URL(fileURLWithPath: home.store.path))
        #expect(database.range(of: Data(created.secret.utf8)) == nil)
        #expect(try tokens.liveScopesByDigest() == [AccessTokens.digest(created.secret): .write])
        withExtendedLifetime(directory) {}
    }

    @Test func revokingATokenStopsItAndEndsItsSessions() throws {
        let (directory, home) = try Self.home()
        let tokens = AccessTokens(home: home)
        let sessions = AdminSessions(home: home)
        let created = try tokens.create(name: "ann", scope: .admin, now: at("2026-11-21T10:00:00Z"))
        let opened = try #require(try sessions.open(secret: created.secret, now: at("2026-11-21T10:00:00Z")))
        #expect(try sessions.session(id: opened.id, now: at("2026-11-21T10:05:00Z"))?.token.name == "ann")
        let revoked = try tokens.revoke(name: "ann", now: at("2026-11-21T10:10:00Z"))
        #expect(revoked.revokedAt == at("2026-11-21T10:10:00Z") && !revoked.isLive)
        #expect(try tokens.authenticate(secret: created.secret, now: at("2026-11-21T10:11:00Z")) == nil)
        #expect(try sessions.session(id: opened.id, now: at("2026-11-21T10:11:00Z")) == nil)
        #expect(try sessions.open(secret: created.secret, now: at("2026-11-21T10:11:00Z")) == nil)
        #expect(throws: AuthError.unknownToken("ann")) { try tokens.revoke(name: "ann", now: at("2026-11-21T10:12:00Z")) }
        // The name is free again; the revoked one stays listed with --all.
        _ = try tokens.create(name: "ann", scope: .read, now: at("2026-11-21T10:13:00Z"))
        #expect(try tokens.list().map(\.scope) == [.read])
        #expect(try tokens.list(includeRevoked: true).map(\.isLive) == [true, false])
        withExtendedLifetime(directory) {}
    }

    @Test func namesAreCheckedAndUniqueAmongLiveTokens() throws {
        let (directory, home) = try Self.home()
        let tokens = AccessTokens(home: home)
        for bad in ["", "   ", "has space", "ümlaut", String(repeating: "x", count: 65), "semi;colon"] {
            #expect(throws: AuthError.invalidName(bad)) { try tokens.create(name: bad, scope: .read, now: at("2026-11-21")) }
        }
        _ = try tokens.create(name: "ci.main-1_x", scope: .read, now: at("2026-11-21"))
        #expect(throws: AuthError.duplicateName("ci.main-1_x")) { try tokens.create(name: "ci.main-1_x", scope: .admin, now: at("2026-11-21")) }
        withExtendedLifetime(directory) {}
    }

    @Test func sessionsExpireEndOnLogoutAndStoreOnlyTheirDigest() throws {
        let (directory, home) = try Self.home()
        let tokens = AccessTokens(home: home)
        let sessions = AdminSessions(home: home)
        let created = try tokens.create(name: "ci", scope: .write, now: at("2026-11-21T10:00:00Z"))
        #expect(try sessions.open(secret: "bct_wrong", now: at("2026-11-21T10:00:00Z")) == nil)
        let opened = try #require(try sessions.open(secret: created.secret, now: at("2026-11-21T10:00:00Z")))
        #expect(opened.session.expiresAt == at("2026-11-21T22:00:00Z"))
        #expect(opened.session.csrfToken.count == 43 && opened.session.csrfToken != opened.id)
        #expect(try sessions.session(id: opened.id, now: at("2026-11-21T21:59:59Z")) == opened.session)
        #expect(try sessions.session(id: opened.id, now: at("2026-11-21T22:00:00Z")) == nil, "expired")
        let second = try #require(try sessions.open(secret: created.secret, now: at("2026-11-21T23:00:00Z")))
        #expect(second.session.csrfToken != opened.session.csrfToken)
        let scopes = try sessions.liveScopesByDigest(now: at("2026-11-21T23:00:00Z"))
        #expect(scopes.count == 1 && scopes[AccessTokens.digest(second.id)]?.scope == .write)
        try sessions.end(id: second.id, now: at("2026-11-21T23:05:00Z"))
        #expect(try sessions.session(id: second.id, now: at("2026-11-21T23:06:00Z")) == nil)
        try sessions.end(id: "not a session", now: at("2026-11-21T23:06:00Z"))
        #expect(try sessions.session(id: "../../etc", now: at("2026-11-21T23:06:00Z")) == nil)
        let database = try Data(contentsOf: URL(fileURLWithPath: home.store.path))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: home.store.path + "-wal"))) ?? Data()
        for secret in [opened.id, second.id] {
            #expect(database.range(of: Data(secret.utf8)) == nil && wal.range(of: Data(secret.utf8)) == nil)
        }
        withExtendedLifetime(directory) {}
    }

    @Test func groupsAreReplacedAndLinksReissued() throws {
        let (directory, home) = try Self.home()
        let roster = Roster(home: home)
        let ann = try roster.addTester(NewTester(name: "Ann", email: "ann@example.com", groups: ["qa"]), now: at("2026-11-21"))
        let regrouped = try roster.setGroups("ann@example.com", groups: ["design", " beta ", "design"])
        #expect(regrouped.groups == ["beta", "design"])
        #expect(try roster.tester(matching: String(ann.id)).groups == ["beta", "design"])
        #expect(throws: RosterError.invalidGroup("a/b")) { try roster.setGroups("Ann", groups: ["a/b"]) }
        #expect(try roster.tester(matching: "Ann").groups == ["beta", "design"], "a refused change leaves the groups")
        let relinked = try roster.reissueLink("Ann")
        #expect(relinked.token != ann.token && relinked.token.count == 43)
        let snapshot = try DistributionSnapshot.load(from: home)
        #expect(snapshot.tester(token: ann.token) == nil && snapshot.tester(token: relinked.token)?.id == ann.id)
        #expect(throws: RosterError.testerNotFound("Nobody")) { try roster.reissueLink("Nobody") }
        withExtendedLifetime(directory) {}
    }

    @Test func aDatabaseFromBeforeTheAdminTablesIsUpgraded() throws {
        let (directory, home) = try Self.home()
        // The database as it was just before the admin migration, whatever number it gets at a
        // merge: every table that migration and the later ones create is dropped.
        let later = Schema.migrations.filter { $0.version >= Schema.admin.version }.map(\.sql).joined(separator: "\n")
        let tables = later.matches(of: /CREATE TABLE (?:IF NOT EXISTS )?([A-Za-z_]+)/).map { String($0.output.1) }
        #expect(tables.contains("api_tokens") && tables.contains("admin_sessions"))
        try home.store.write { db in
            for table in tables.reversed() { try db.execute("DROP TABLE IF EXISTS \(table)") }
            try db.execute("PRAGMA user_version = \(Schema.admin.version - 1)")
        }
        let reopened = try Home.open(at: home.path)
        #expect(reopened.store.schemaVersion == Schema.latestVersion)
        _ = try AccessTokens(home: reopened).create(name: "ci", scope: .read, now: at("2026-11-21"))
        withExtendedLifetime(directory) {}
    }
}
