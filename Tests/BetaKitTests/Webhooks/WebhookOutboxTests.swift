import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// The outbox in process: written with the change or not at all, retried on a schedule, an
/// endpoint failing for a day disabled, the last 100 deliveries kept, profile expiry notices once.
@Suite(.serialized) struct WebhookOutboxTests {
    struct Rollback: Error {}

    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        private let value: Locked<Date>
        init(_ start: Date) { value = Locked(start) }
        var now: Date { value.value }
        func advance(_ seconds: Double) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func home(_ directory: TemporaryDirectory) throws -> Home {
        try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(publicURL: "https://beta.example.com"), now: Date()).home
    }

    static func count(_ home: Home, _ table: String) throws -> Int64 {
        try home.store.read { db in try db.queryOne("SELECT count(*) FROM \(table)")?.int(0) ?? -1 }
    }

    @Test func aChangeThatRollsBackQueuesNothingAndOneThatCommitsQueuesOncePerEndpoint() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let webhooks = Webhooks(home: home)
        _ = try webhooks.add(url: "http://127.0.0.1:9/a", events: [.testerAdded], format: .standard, allowPrivate: true, now: Date())
        _ = try webhooks.add(url: "http://127.0.0.1:9/b", events: [], format: .slack, allowPrivate: true, now: Date())
        _ = try webhooks.add(url: "http://127.0.0.1:9/c", events: [.releasePublished], format: .standard, allowPrivate: true, now: Date())
        #expect(throws: Rollback.self) {
            try home.store.write { db in
                try db.query("INSERT INTO testers (name, token, token_digest, created_at) VALUES ('Zed', 'tok', 'dig', '2026-01-01T00:00:00Z')")
                try WebhookOutbox.testerAdded(id: db.lastInsertRowID, db: db, now: Date())
                throw Rollback()
            }
        }
        #expect(try Self.count(home, "webhook_events") == 0 && Self.count(home, "webhook_deliveries") == 0)
        _ = try Roster(home: home).addTester(NewTester(name: "Ann"), now: Date())
        #expect(try Self.count(home, "webhook_events") == 1)
        #expect(try webhooks.deliveries().map(\.webhookID).sorted() == [1, 2], "the release-only endpoint is not told")
        #expect(try webhooks.deliveries().allSatisfy { $0.state == "pending" && $0.event == "tester.added" && $0.messageID.hasPrefix("msg_") })
    }

    @Test func failuresAreRetriedOnTheScheduleAndADayOfThemDisablesTheEndpoint() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let clock = Clock(Date(timeIntervalSince1970: 1_800_000_000))
        let webhooks = Webhooks(home: home)
        // Nothing listens on port 9: every attempt fails to connect.
        _ = try webhooks.add(url: "http://127.0.0.1:9/hook", events: [], format: .standard, allowPrivate: true, now: clock.now)
        let schedule = WebhookSchedule(retryDelays: [60, 3600, 86_400], timeout: 2, disableAfter: 3600)
        let deliverer = WebhookDeliverer(home: home, schedule: schedule, now: { clock.now })
        _ = try Roster(home: home).addTester(NewTester(name: "Ann"), now: clock.now)
        #expect(try deliverer.deliverDue() == 1)
        var delivery = try #require(try webhooks.deliveries().first)
        #expect(delivery.state == "pending" && delivery.attempts == 1 && delivery.lastError?.contains("could not connect") == true)
        #expect(delivery.nextAttemptAt.map { abs($0.timeIntervalSince(clock.now) - 60) < 1 } == true)
        #expect(try webhooks.webhook(id: 1).state == "failing")
        #expect(try deliverer.deliverDue() == 0, "not due before its time")
        clock.advance(61)
        #expect(try deliverer.deliverDue() == 1)
        delivery = try #require(try webhooks.deliveries().first)
        #expect(delivery.attempts == 2 && delivery.state == "pending")
        #expect(try webhooks.webhook(id: 1).disabledAt == nil)
        clock.advance(3601)
        #expect(try deliverer.deliverDue() == 1)
        let hook = try webhooks.webhook(id: 1)
        #expect(hook.state == "disabled" && hook.disabledReason?.contains("every delivery failed since") == true)
        clock.advance(86_401)
        #expect(try deliverer.deliverDue() == 0, "a disabled endpoint gets nothing")
        // `webhook test` enables it again.
        let test = try webhooks.queueTest(id: 1, now: clock.now)
        #expect(try webhooks.webhook(id: 1).state == "enabled")
        #expect(try deliverer.deliverDue(only: test) == 1)
    }

    @Test func theLastHundredDeliveriesOfAnEndpointAreKept() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let receiver = try WebhookReceiver()
        let webhooks = Webhooks(home: home)
        _ = try webhooks.add(url: receiver.base + "/ok", events: [.testerAdded], format: .standard, allowPrivate: true, now: Date())
        let roster = Roster(home: home)
        for index in 0 ..< 105 { _ = try roster.addTester(NewTester(name: "Tester \(index)"), now: Date()) }
        let deliverer = WebhookDeliverer(home: home)
        var sent = 0
        while true {
            let count = try deliverer.deliverDue(limit: 50)
            if count == 0 { break }
            sent += count
        }
        #expect(sent == 105 && receiver.requests.count == 105)
        let kept = try webhooks.deliveries(webhookID: 1, limit: 1000)
        #expect(kept.count == 100 && kept.allSatisfy { $0.state == "delivered" })
        #expect(try Self.count(home, "webhook_events") == 100, "events no delivery refers to are gone")
    }

    @Test func profileExpiryNoticesAreQueuedOnceAt30AndAt7Days() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let bytes = try [UInt8](LocalFixtures.data("formats/profiles/beta_adhoc.mobileprovision"))
        let imported = try Archive(home: home).importProfile(bytes: bytes, now: Date())
        let expires = imported.profile.expirationDate
        let webhooks = Webhooks(home: home)
        _ = try webhooks.add(url: "http://127.0.0.1:9/hook", events: [.profileExpiring], format: .standard, allowPrivate: true, now: Date())
        let clock = Clock(expires.addingTimeInterval(-40 * 86_400))
        let deliverer = WebhookDeliverer(home: home, now: { clock.now })
        #expect(try deliverer.queueExpiryNotices() == 0)
        clock.advance(11 * 86_400)
        #expect(try deliverer.queueExpiryNotices() == 1)
        #expect(try deliverer.queueExpiryNotices() == 0, "once")
        clock.advance(20 * 86_400)
        #expect(try deliverer.queueExpiryNotices() == 0)
        clock.advance(3 * 86_400)
        #expect(try deliverer.queueExpiryNotices() == 1)
        clock.advance(86_400)
        #expect(try deliverer.queueExpiryNotices() == 0)
        let payloads = try home.store.read { db in try db.query("SELECT payload FROM webhook_events ORDER BY id").compactMap { $0.string(0) } }
        #expect(payloads.count == 2 && payloads[0].contains("\"notice_days\":30") && payloads[1].contains("\"notice_days\":7"))
        #expect(payloads[0].contains("\"url\":\"https://beta.example.com/admin/profiles/\(imported.profile.uuid)\""))
    }

    @Test func anAddressThatTurnedPrivateIsRefusedAgainBeforeEachAttempt() throws {
        let directory = try TemporaryDirectory()
        let home = try Self.home(directory)
        let receiver = try WebhookReceiver()
        // As if the name resolved publicly when it was added and to loopback now.
        try home.store.write { db in
            try db.query("INSERT INTO webhooks (url, events, format, secret, allow_private, created_at) VALUES (?, '', 'standard', '00', 0, '2026-01-01T00:00:00Z')",
                         [.text(receiver.base + "/ok")])
        }
        _ = try Roster(home: home).addTester(NewTester(name: "Ann"), now: Date())
        #expect(try WebhookDeliverer(home: home).deliverDue() == 1)
        let delivery = try #require(try Webhooks(home: home).deliveries().first)
        #expect(delivery.state == "pending" && delivery.lastStatus == nil)
        #expect(delivery.lastError?.contains("resolves to 127.0.0.1, a loopback address") == true, "\(delivery.lastError ?? "")")
        #expect(receiver.requests.isEmpty, "nothing was sent")
    }

    @Test func buildsCompareByTheirNumbers() {
        #expect(WebhookOutbox.isNewer("10", than: "9") && WebhookOutbox.isNewer("1.2.10", than: "1.2.9") && WebhookOutbox.isNewer("2", than: "1.9"))
        #expect(!WebhookOutbox.isNewer("9", than: "10") && !WebhookOutbox.isNewer("3", than: "3") && !WebhookOutbox.isNewer("1.0", than: "1"))
    }
}
