import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// Rows are read by name from the same column list their SELECT is built from, and a value that
/// is not what betactl stores is an error naming the column, never a silent zero or default.
@Suite struct TypedRowTests {
    @Test func aColumnIsReadByItsNameOrItsAlias() throws {
        let columns = SQLColumns(["r.id", "t.name AS tester_name", "(SELECT count(*) FROM crash_uploads u WHERE u.report_id = r.id) AS upload_count"])
        #expect(columns.list == "r.id, t.name AS tester_name, (SELECT count(*) FROM crash_uploads u WHERE u.report_id = r.id) AS upload_count")
        #expect(columns.position(of: "r.id") == 0 && columns.position(of: "tester_name") == 1 && columns.position(of: "upload_count") == 2)
        let row = columns.reader(SQLiteRow(values: [.integer(7), .null, .integer(2)]))
        #expect(try row.int("r.id") == 7)
        #expect(try row.optionalText("tester_name") == nil)
        #expect(throws: SQLRowError(column: "tester_name", problem: .missing)) { try row.text("tester_name") }
        #expect(throws: SQLRowError(column: "t.name", problem: .notSelected)) { try row.text("t.name") }
        #expect(throws: SQLRowError(column: "r.id", problem: .wrongType(expected: "text", found: "a blob"))) {
            try columns.reader(SQLiteRow(values: [.blob([1])])).optionalText("r.id")
        }
    }

    @Test func aDamagedCrashRowNamesTheColumnAndTheFix() throws {
        let fixture = try CrashFixture()
        let receipt = try #require(try fixture.submit([CrashFixture.report("App-309.ips")]).first)
        #expect(try fixture.store.report(id: receipt.reportID).size > 0)
        try fixture.home.store.write { db in try db.query("UPDATE crash_reports SET size = 'big' WHERE id = ?", [.integer(receipt.reportID)]) }
        #expect(throws: SQLRowError(column: "r.size", problem: .wrongType(expected: "an integer", found: "text"))) {
            try fixture.store.report(id: receipt.reportID)
        }
        try fixture.home.store.write { db in
            try db.query("UPDATE crash_reports SET size = 1, received_at = 'last week' WHERE id = ?", [.integer(receipt.reportID)])
        }
        do {
            _ = try fixture.store.reports()
            Issue.record("a report received 'last week' was read")
        } catch let error as SQLRowError {
            #expect(error.column == "r.received_at")
            #expect(error.description == "database error: column r.received_at holds \"last week\", which is not a timestamp; the database was changed outside betactl or is damaged, so restore the home from a backup (betactl backup)")
        }
    }

    @Test func rowsReadByNameGiveWhatTheStoreWrote() throws {
        let fixture = try CrashFixture()
        let tester = try fixture.roster.addTester("Ann Lee", email: "ann@example.com")
        let receipts = try fixture.submit([CrashFixture.report("App-309.ips"), CrashFixture.inspect("ips/JetsamEvent-2024-05-06-101112.ips")],
                                          testerID: tester.id)
        try fixture.process()
        let records = try fixture.store.reports()
        #expect(Set(records.map(\.id)) == Set(receipts.map(\.reportID)))
        let crash = try #require(records.first { $0.id == receipts[0].reportID })
        #expect(crash.status == .partial && crash.testerName == "Ann Lee" && crash.uploadCount == 1 && crash.receivedAt == CrashFixture.now)
        #expect(crash.missingSymbols.map(\.uuid) == [CrashFixture.appUUID])
        let group = try #require(try fixture.store.groups().first)
        #expect(group.count == 1 && group.representativeID == crash.id && group.testerIDs == [tester.id])
        let upload = try #require(try fixture.store.uploads(of: crash.id).first)
        #expect(upload.reportID == crash.id && upload.source == .raw && upload.testerID == tester.id)
    }
}
