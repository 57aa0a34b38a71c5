import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// Every outcome of a device's enrolment reply, with replies signed by openssl as devices sign them.
/// Those are self-signed, so these tests take them in as `serve --allow-unverified-enrollment`
/// does, with the approval rule approving every request: what is under test here is the challenge,
/// the roster and the slot rule (DeviceRequestTests covers verification and requests).
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct DeviceEnrollmentTests {
    static let udid = "00008120-001A2B3C4D5E6F70"
    let f: RosterFixture
    let enrollment: DeviceEnrollment
    let ann: Tester
    let bo: Tester

    init() throws {
        f = try RosterFixture()
        enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        try DeviceRequests(home: f.home).setRule(.all, now: at("2026-11-01"))
        ann = try f.addTester("Ann Lee")
        bo = try f.addTester("Bo Chen")
    }

    func device(_ udid: String = Self.udid) throws -> Device? {
        try f.roster.devices().first { $0.identifier.value == udid }
    }

    @Test func aReplyWithAFreshChallengeRegistersThePendingDeviceToItsTester() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10T10:00:00Z"))
        let result = try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-10T10:05:00Z"))
        #expect(result.outcome == .registered)
        #expect(result.udid?.value == Self.udid)
        #expect(result.deviceName == "Ann's iPhone")
        #expect(result.family == .iphone)
        #expect(!result.reusedSlot)
        let device = try #require(try device())
        #expect(device.testerID == ann.id)
        #expect(device.name == "Ann's iPhone")
        #expect(device.model == "iPhone15,2")
        #expect(device.family == .iphone)
        #expect(device.isPending)
        #expect(try f.roster.pendingDevices().map(\.identifier.value) == [Self.udid])
        #expect(try f.usage(.iphone, now: "2026-11-10").used == 1)
        #expect(try enrollment.result(reference: result.reference, testerID: ann.id) == result)
        #expect(try enrollment.result(reference: result.reference, testerID: bo.id) == nil, "another tester's link never shows it")
        #expect(!result.reference.contains(Self.udid))
    }

    @Test func aBERReplyWithIndefiniteLengthsIsReadLikeADERReply() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let reply = try await replies.reply(ber: true, challenge: challenge)
        #expect(Array(reply.prefix(2)) == [0x30, 0x80], "openssl -stream writes BER with indefinite lengths")
        #expect(try enrollment.receive(reply, testerID: ann.id, now: at("2026-11-10")).outcome == .registered)
        #expect(try device()?.name == "Ann's iPhone")
    }

    @Test func withoutADeviceNameTheDeviceIsNamedAfterItsTesterAndModel() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let reply = try await replies.reply(product: "iPad16,3", deviceName: nil, imei: nil, challenge: challenge)
        let result = try enrollment.receive(reply, testerID: ann.id, now: at("2026-11-10"))
        #expect(result.outcome == .registered)
        #expect(try device()?.name == "Ann Lee iPad Pro 11-inch (M4)")
        #expect(try device()?.family == .ipad)
        let unknown = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        let future = try await replies.reply(udid: "00008150-0000000000000001", product: "iPhone99,9", deviceName: nil, challenge: unknown)
        #expect(try enrollment.receive(future, testerID: bo.id, now: at("2026-11-10")).outcome == .registered)
        #expect(try device("00008150-0000000000000001")?.name == "Bo Chen iPhone99,9", "an unknown model code is shown as it is")
    }

    @Test func theSameDeviceEnrollingTwiceTakesOneSlot() async throws {
        let replies = try await EnrollmentReplies.make()
        for (index, expected) in [EnrollmentResult.Outcome.registered, .alreadyRegistered].enumerated() {
            let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-1\(index)"))
            let result = try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-1\(index)"))
            #expect(result.outcome == expected)
        }
        #expect(try f.roster.devices().count == 1)
        #expect(try f.usage(.iphone, now: "2026-11-12").used == 1)
        // Bo enrolling the same phone changes nothing either.
        let challenge = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-12"))
        #expect(try enrollment.receive(try await replies.reply(challenge: challenge), testerID: bo.id, now: at("2026-11-12")).outcome
            == .registeredToSomeoneElse)
        #expect(try device()?.testerID == ann.id)
    }

    @Test func aRemovedDeviceComesBackInTheSameYearWithoutANewSlot() async throws {
        let replies = try await EnrollmentReplies.make()
        let first = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        _ = try enrollment.receive(try await replies.reply(challenge: first), testerID: ann.id, now: at("2026-11-10"))
        _ = try f.roster.removeDevice(try DeviceIdentifier(Self.udid), now: at("2026-11-11"))
        let second = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-12"))
        let result = try enrollment.receive(try await replies.reply(challenge: second), testerID: ann.id, now: at("2026-11-12"))
        #expect(result.outcome == .registered)
        #expect(result.reusedSlot)
        #expect(try f.usage(.iphone, now: "2026-11-12").used == 1)
    }

    @Test func aDeviceInTheRosterWithoutATesterBecomesTheTesters() async throws {
        let replies = try await EnrollmentReplies.make()
        _ = try f.roster.addDevice(NewDevice(identifier: try DeviceIdentifier(Self.udid), name: "QA phone", family: .iphone), tester: nil,
                                   now: at("2026-11-01"))
        let challenge = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        let result = try enrollment.receive(try await replies.reply(challenge: challenge), testerID: bo.id, now: at("2026-11-10"))
        #expect(result.outcome == .alreadyRegistered)
        #expect(try device()?.testerID == bo.id)
        #expect(try device()?.model == "iPhone15,2")
        #expect(try device()?.isPending == false, "it was not registered by enrolment")
    }

    @Test func aFullFamilyRefusesTheDeviceAndNamesTheRenewal() async throws {
        let replies = try await EnrollmentReplies.make()
        try f.fill(.iphone, count: 100, tester: bo, start: 5000)
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let result = try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-10"))
        #expect(result.outcome == .familyFull)
        #expect(result.slots?.used == 100)
        #expect(result.slots?.limit == 100)
        #expect(result.renews?.description == "2027-03-01")
        #expect(try device() == nil)
        #expect(try enrollment.result(reference: result.reference, testerID: ann.id) == result)
        // Another family still has room.
        let pad = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let padReply = try await replies.reply(udid: "00008103-0000000000000002", product: "iPad13,18", challenge: pad)
        #expect(try enrollment.receive(padReply, testerID: ann.id, now: at("2026-11-10")).outcome == .registered)
    }

    @Test func anExpiredChallengeAddsNothing() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10T10:00:00Z"))
        let reply = try await replies.reply(challenge: challenge)
        #expect(try enrollment.receive(reply, testerID: ann.id, now: at("2026-11-10T10:30:00Z")).outcome == .expired)
        #expect(try device() == nil)
        // A minute before, the same challenge would have worked.
        let fresh = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10T10:00:00Z"))
        #expect(try enrollment.receive(try await replies.reply(challenge: fresh), testerID: ann.id, now: at("2026-11-10T10:29:00Z")).outcome
            == .registered)
    }

    @Test func aChallengeWorksOnceOnly() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        #expect(try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-10")).outcome == .registered)
        let other = try await replies.reply(udid: "00008120-0000000000000099", challenge: challenge)
        #expect(try enrollment.receive(other, testerID: ann.id, now: at("2026-11-10")).outcome == .challengeUsed)
        #expect(try device("00008120-0000000000000099") == nil)
        #expect(try f.roster.devices().count == 1)
    }

    @Test func anotherTestersChallengeIsRefusedAndStaysUsableByThem() async throws {
        let replies = try await EnrollmentReplies.make()
        let bos = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        let reply = try await replies.reply(challenge: bos)
        #expect(try enrollment.receive(reply, testerID: ann.id, now: at("2026-11-10")).outcome == .wrongTester)
        #expect(try device() == nil)
        #expect(try enrollment.receive(reply, testerID: bo.id, now: at("2026-11-10")).outcome == .registered)
        #expect(try device()?.testerID == bo.id)
    }

    @Test func forgedGarbageTruncatedAndOversizedRepliesAddNothing() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let good = try await replies.reply(challenge: challenge)
        let now = at("2026-11-10")
        let garbage = try enrollment.receive(patternBytes(3000), testerID: ann.id, now: now)
        #expect(garbage.outcome == .unreadable)
        #expect(garbage.detail?.contains("not readable") == true)
        #expect(try enrollment.receive([], testerID: ann.id, now: now).outcome == .unreadable)
        #expect(try enrollment.receive(Array(good.prefix(good.count / 2)), testerID: ann.id, now: now).outcome == .unreadable)
        let huge = try enrollment.receive(good + patternBytes(1 << 20), testerID: ann.id, now: now)
        #expect(huge.outcome == .tooLarge)
        #expect(try enrollment.receive(Array(good.prefix(100)), bodyTooLarge: true, testerID: ann.id, now: now).outcome == .tooLarge)
        // Made-up, missing and unsigned challenges.
        #expect(try enrollment.receive(try await replies.reply(challenge: "bm90LWEtcmVhbC1jaGFsbGVuZ2UtYXQtYWxs"), testerID: ann.id, now: now).outcome
            == .unknownChallenge)
        #expect(try enrollment.receive(try await replies.reply(challenge: nil), testerID: ann.id, now: now).outcome == .unknownChallenge)
        let unsigned = OpenSSLTool.deviceReplyPlist(udid: Self.udid, challenge: challenge)
        #expect(try enrollment.receive(Array(unsigned.utf8), testerID: ann.id, now: now).outcome == .unreadable)
        let noProduct = try await replies.reply(product: nil, challenge: challenge)
        let refused = try enrollment.receive(noProduct, testerID: ann.id, now: now)
        #expect(refused.outcome == .unreadable)
        #expect(refused.detail == "the reply does not say which model the device is (no PRODUCT)")
        #expect(try f.roster.devices().isEmpty)
        // None of it used the challenge up.
        #expect(try enrollment.receive(good, testerID: ann.id, now: now).outcome == .registered)
    }

    @Test func everyTruncationOfAReplyIsReadAsUnreadable() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let good = try await replies.reply(challenge: challenge)
        for cut in stride(from: 0, to: good.count, by: 37) {
            let result = try enrollment.receive(Array(good.prefix(cut)), testerID: ann.id, now: at("2026-11-10"))
            #expect(result.outcome == .unreadable, "cut at \(cut) of \(good.count)")
            #expect(result.detail?.isEmpty == false)
        }
        #expect(try f.roster.devices().isEmpty)
    }

    @Test func aRemovedTestersChallengeNoLongerCounts() async throws {
        let replies = try await EnrollmentReplies.make()
        let challenge = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        _ = try f.roster.removeTester(String(bo.id), now: at("2026-11-10"))
        #expect(try enrollment.receive(try await replies.reply(challenge: challenge), testerID: bo.id, now: at("2026-11-10")).outcome == .expired)
        #expect(try device() == nil)
    }

    @Test func outstandingChallengesPerTesterAreCapped() throws {
        for minute in 0 ..< 30 {
            _ = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10T10:\(String(format: "%02d", minute)):00Z"))
        }
        _ = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10T10:30:00Z"))
        let counts = try f.home.store.read { db in
            (try db.queryOne("SELECT COUNT(*) FROM enrollment_challenges WHERE tester_id = ?", [.integer(ann.id)])?.int(0),
             try db.queryOne("SELECT COUNT(*) FROM enrollment_challenges WHERE tester_id = ?", [.integer(bo.id)])?.int(0))
        }
        #expect(counts.0 == Int64(DeviceEnrollment.outstandingChallengeLimit))
        #expect(counts.1 == 1)
        // A day after they expired, they are gone.
        _ = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-12"))
        let left = try f.home.store.read { db in try db.queryOne("SELECT COUNT(*) FROM enrollment_challenges")?.int(0) }
        #expect(left == 1)
    }
}

/// Results and challenges cannot pile up, whatever is posted to a link.
@Suite struct EnrollmentHousekeepingTests {
    @Test func resultsPerTesterAreCappedAndTheNewestKept() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        let enrollment = DeviceEnrollment(home: f.home)
        var last: EnrollmentResult?
        for second in 0 ..< DeviceEnrollment.resultsPerTester + 15 {
            last = try enrollment.receive([UInt8(second & 0xFF)], testerID: ann.id, now: at("2026-11-10").addingTimeInterval(Double(second)))
        }
        let count = try f.home.store.read { db in try db.queryOne("SELECT COUNT(*) FROM enrollment_results")?.int(0) }
        #expect(count == Int64(DeviceEnrollment.resultsPerTester))
        let newest = try #require(last)
        #expect(try enrollment.result(reference: newest.reference, testerID: ann.id) == newest)
    }
}
