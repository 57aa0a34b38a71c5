import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// `job.failed` is queued when crash processing gives up on a report that stopped it too often.
@Suite struct WebhookJobFailedTests {
    @Test func crashProcessingThatGivesUpQueuesJobFailed() throws {
        let fixture = try CrashFixture()
        _ = try Webhooks(home: fixture.home).add(url: "http://127.0.0.1:9/hook", events: [.jobFailed], format: .standard, allowPrivate: true, now: Date())
        let receipts = try fixture.submit([try CrashFixture.report("App-309.ips")])
        let id = try #require(receipts.first?.reportID)
        // As if three processors had been killed while working on it.
        try fixture.home.store.write { db in try db.query("UPDATE crash_queue SET attempts = ? WHERE report_id = ?", [.integer(CrashStore.maxAttempts), .integer(id)]) }
        try fixture.process()
        let events = try fixture.home.store.read { db in
            try db.query("SELECT type, payload FROM webhook_events").map { ($0.string(0) ?? "", $0.string(1) ?? "") }
        }
        #expect(events.map(\.0) == ["job.failed"])
        #expect(events.first?.1.contains("\"name\":\"crash processing\"") == true && events.first?.1.contains("\"subject\":\"crash report \(id)\"") == true)
        #expect(events.first?.1.contains("stopped 3 times without finishing") == true, "\(events.first?.1 ?? "")")
    }
}
