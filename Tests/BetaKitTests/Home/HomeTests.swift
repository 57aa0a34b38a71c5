import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct HomeTests {
    @Test func initCreatesTheDatabaseAndFoldersWithDefaults() throws {
        let dir = try TemporaryDirectory()
        let path = dir.child("home")
        let result = try Home.initialise(at: path, change: HomeSettingsChange(), now: at("2026-11-21T10:00:00Z"))
        #expect(result.created)
        for sub in ["betactl.sqlite", "blobs", "cache", "tmp"] {
            #expect(FileManager.default.fileExists(atPath: path + "/" + sub))
        }
        #expect(result.home.settings.publicURL == "http://127.0.0.1:8080")
        #expect(result.home.settings.teamID == nil)
        #expect(result.home.store.schemaVersion == Schema.latestVersion)
        let year = result.home.settings.membershipYear(at: at("2026-12-01"))
        #expect(year.isInferred)
        #expect(year.start.description == "2026-11-21")
    }

    @Test func reInitChangesOnlyTheGivenSettings() throws {
        let dir = try TemporaryDirectory()
        let path = dir.child("home")
        _ = try Home.initialise(at: path, change: HomeSettingsChange(teamID: "abcde12345", membershipRenewal: CalendarDate(iso: "2027-03-01")), now: at("2026-11-21"))
        let second = try Home.initialise(at: path, change: HomeSettingsChange(publicURL: "https://beta.example.com/"), now: at("2026-12-24"))
        #expect(!second.created)
        #expect(second.previous?.publicURL == "http://127.0.0.1:8080")
        #expect(second.home.settings.teamID == "ABCDE12345")
        #expect(second.home.settings.membershipRenewal?.description == "2027-03-01")
        #expect(second.home.settings.publicURL == "https://beta.example.com")
        #expect(CalendarDate(second.home.settings.createdAt).description == "2026-11-21")
    }

    @Test func openingAMissingOrUninitialisedHomeSaysHowToCreateOne() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: HomeError.missing(path: dir.child("nope"))) { try Home.open(at: dir.child("nope")) }
        #expect(throws: HomeError.notInitialised(path: dir.path)) { try Home.open(at: dir.path) }
        #expect(HomeError.missing(path: "/x").description.contains("betactl init"))
        #expect(HomeError.notInitialised(path: "/x").description.contains("betactl init --home /x"))
    }

    @Test func initRefusesADirectoryHoldingOtherFiles() throws {
        let dir = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir.child("notes.txt"), contents: Data("hi".utf8))
        #expect(throws: InitError.self) { try Home.initialise(at: dir.path, change: HomeSettingsChange(), now: Date()) }
        #expect(!FileManager.default.fileExists(atPath: dir.child("betactl.sqlite")))
    }

    @Test(arguments: [
        HomeSettingsChange(teamID: "ABC"), HomeSettingsChange(teamID: "ABCDE-1234"),
        HomeSettingsChange(publicURL: "ftp://x"), HomeSettingsChange(publicURL: "https://"), HomeSettingsChange(publicURL: "https://a b"),
    ])
    func invalidSettingsAreRefusedBeforeAnythingIsWritten(change: HomeSettingsChange) throws {
        let dir = try TemporaryDirectory()
        #expect(throws: HomeError.self) { try Home.initialise(at: dir.child("home"), change: change, now: Date()) }
        #expect(!FileManager.default.fileExists(atPath: dir.child("home")))
    }

    @Test func homePathComesFromFlagThenEnvironmentThenUserHome() {
        #expect(Home.resolvePath(explicit: "/a/b/", environment: ["BETACTL_HOME": "/c"]) == "/a/b")
        #expect(Home.resolvePath(explicit: nil, environment: ["BETACTL_HOME": "/c", "HOME": "/u"]) == "/c")
        #expect(Home.resolvePath(explicit: nil, environment: ["HOME": "/u"]) == "/u/.betactl")
        #expect(Home.resolvePath(explicit: "~/x", environment: ["HOME": "/u"]) == "/u/x")
    }

    @Test func aDatabaseFromANewerBetactlIsRefusedWithTheVersions() throws {
        let dir = try TemporaryDirectory()
        let home = try Home.initialise(at: dir.child("home"), change: HomeSettingsChange(), now: Date()).home
        try home.store.write { db in try db.execute("PRAGMA user_version = 999") }
        #expect {
            try Home.open(at: home.path)
        } throws: { error in
            (error as? SchemaError)?.description.contains("version 999") == true
        }
    }
}
