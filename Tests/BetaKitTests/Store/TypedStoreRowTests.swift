import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// The stores that read rows through a shared column list turn a value betactl never writes (a
/// NULL where it always stores one, text in an integer column, an unreadable timestamp) into an
/// error naming the column, instead of skipping the row or putting a default in its place.
@Suite struct TypedStoreRowTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func home(_ directory: TemporaryDirectory) throws -> Home {
        try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: now).home
    }

    @Test func aSettingWithANullKeyIsAnErrorNamingTheColumn() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        #expect(try home.store.loadSettings() != nil)
        // A TEXT primary key takes NULL in SQLite: only a database edited by hand holds one.
        try home.store.write { db in try db.query("INSERT INTO settings (key, value) VALUES (NULL, 'x')") }
        #expect(throws: SQLRowError(column: "key", problem: .missing)) { try home.store.loadSettings() }
    }

    @Test func aJobWithTextForItsAttemptsIsAnErrorNotASkippedJob() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let queue = JobQueue(home: home)
        let id = try home.store.write { db in
            try JobQueue.enqueue(.refreshApps, subject: nil, payload: "{}", step: "start", db: db, now: Self.now)
        }
        let job = try queue.job(id: id)
        #expect(job.kind == JobKind.refreshApps.rawValue && job.state == .queued && job.step == "start" && job.attempts == 0)
        #expect(job.createdAt == Self.now && job.subject == nil && job.finishedAt == nil)

        try home.store.write { db in try db.query("UPDATE jobs SET attempts = 'many' WHERE id = ?", [.integer(id)]) }
        let wrongType = SQLRowError(column: "attempts", problem: .wrongType(expected: "an integer", found: "text"))
        #expect(throws: wrongType) { try queue.jobs() }
        #expect(throws: wrongType) { try queue.job(id: id) }
        // The worker stops on it rather than passing over a job it cannot read.
        #expect(throws: wrongType) { try queue.claim(now: Self.now) }

        try home.store.write { db in
            try db.query("UPDATE jobs SET attempts = 0, created_at = 'yesterday' WHERE id = ?", [.integer(id)])
        }
        #expect(throws: SQLRowError(column: "created_at", problem: .unreadable("yesterday", expected: "a timestamp"))) { try queue.jobs() }
    }

    @Test func aDamagedSigningIdentityNamesItsTableAndColumn() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        try home.store.write { db in
            try db.query("""
                INSERT INTO signing_identity (id, certificate_pem, private_key_pem, subject, expires_at, chain_count, imported_at)
                VALUES (1, 'certificate', 'key', 'Ann Lee', ?, 2, ?)
                """, [.text(Timestamp.string(Self.now.addingTimeInterval(86_400))), .text(Timestamp.string(Self.now))])
        }
        let stored = try #require(try SigningIdentityStore(home: home).current())
        #expect(stored.subject == "Ann Lee" && stored.chainCount == 2 && stored.importedAt == Self.now)
        #expect(stored.expiresAt == Self.now.addingTimeInterval(86_400))

        try home.store.write { db in try db.query("UPDATE signing_identity SET expires_at = 'soon'") }
        do {
            _ = try SigningIdentityStore(home: home).current()
            Issue.record("an identity expiring 'soon' was read")
        } catch let error as SQLRowError {
            #expect(error == SQLRowError(column: "signing_identity.expires_at", problem: .unreadable("soon", expected: "a timestamp")))
            #expect(error.description.hasPrefix("database error: column signing_identity.expires_at holds \"soon\""))
        }
    }

    @Test func aCrashReportWithTextForItsSizeIsRecordedUnreadableNamingTheColumn() throws {
        let fixture = try CrashFixture()
        let receipt = try #require(try fixture.submit([CrashFixture.report("App-309.ips")]).first)
        try fixture.home.store.write { db in try db.query("UPDATE crash_reports SET size = 'big' WHERE id = ?", [.integer(receipt.reportID)]) }
        // Recorded on the report, so the rest of the queue is still processed.
        #expect(try fixture.process() == 1)
        let columns = SQLColumns(["status", "error"])
        let found = try #require(try fixture.home.store.read { db in
            try db.queryOne("SELECT \(columns.list) FROM crash_reports WHERE id = ?", [.integer(receipt.reportID)])
        })
        let row = columns.reader(found)
        #expect(try row.required("status", as: CrashStatus.self) == .unreadable)
        #expect(try row.text("error") == "the report's row is damaged: database error: column size holds text where betactl stores an integer; "
            + "the database was changed outside betactl or is damaged, so restore the home from a backup (betactl backup)")
    }
}
