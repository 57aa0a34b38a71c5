import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// `device.enrolled` (and `device.approved` when the approval rule takes the request at once) are
/// queued in the transaction that takes in the enrolment reply.
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct WebhookEnrollmentEventTests {
    @Test func anEnrolmentQueuesDeviceEnrolledAndAnAutomaticApprovalDeviceApproved() async throws {
        let f = try RosterFixture()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        try DeviceRequests(home: f.home).setRule(.all, now: at("2026-11-01"))
        let ann = try f.addTester("Ann Lee")
        _ = try Webhooks(home: f.home).add(url: "http://127.0.0.1:9/hook", events: [.deviceEnrolled, .deviceApproved], format: .standard,
                                            allowPrivate: true, now: Date())
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10T10:00:00Z"))
        #expect(try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-10T10:05:00Z")).outcome == .registered)
        let events = try f.home.store.read { db in
            try db.query("SELECT type, payload FROM webhook_events ORDER BY id").map { ($0.string(0) ?? "", $0.string(1) ?? "") }
        }
        #expect(events.map(\.0) == ["device.enrolled", "device.approved"])
        #expect(events.allSatisfy { $0.1.contains("\"udid\":\"00008120-001A2B3C4D5E6F70\"") && $0.1.contains("\"name\":\"Ann Lee\"") })
        #expect(events.first?.1.contains("\"status\":\"approved\"") == true)
    }
}
