import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// Enrolment as requests: a reply counts only when signed by an Apple device (unless the server
/// allows unverified replies), becomes a request that takes no slot, and is approved (through the
/// roster's slot rule), rejected (freeing nothing) or approved at once by the rule.
@Suite(.enabled(if: OpenSSLTool.available && SharedFixtures.available, "needs openssl and ../shared/fixtures"))
struct DeviceRequestTests {
    static let realUDID = "78897E40-F532-5DE0-A7DC-56BAC5CEEB9C"
    static let realChallenge = "8gLEIttrT7qbLOZs3XzL5XPgNXCliGwRLtn2Lfe4GBsa7g6MGm2sJjicKrLFal4D"
    let f: RosterFixture
    let requests: DeviceRequests
    let ann: Tester
    let bo: Tester

    init() throws {
        f = try RosterFixture()
        requests = DeviceRequests(home: f.home)
        ann = try f.addTester("Ann Lee")
        bo = try f.addTester("Bo Chen")
    }

    static func realReply() throws -> [UInt8] { [UInt8](try SharedFixtures.data("enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s")) }

    /// Hands the real reply's challenge to `tester`, as if the profile it answered had been served from their link.
    func plantRealChallenge(for tester: Tester, now: String = "2026-11-10T10:00:00Z") throws {
        try f.home.store.write { db in
            try db.query("INSERT INTO enrollment_challenges (digest, tester_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                         [.text(InviteToken.digest(Self.realChallenge)), .integer(tester.id), .text(Timestamp.string(at(now))),
                          .text(Timestamp.string(at(now).addingTimeInterval(DeviceEnrollment.challengeLifetime)))])
        }
    }

    func slots(_ family: DeviceFamily) throws -> Int { try f.usage(family, now: "2026-11-10").used }

    @Test func theRealReplyIsVerifiedAndBecomesARequestForAMacThatTakesNoSlot() throws {
        try plantRealChallenge(for: ann)
        let result = try DeviceEnrollment(home: f.home).receive(try Self.realReply(), testerID: ann.id, now: at("2026-11-10T10:05:00Z"))
        #expect(result.outcome == .requested)
        #expect(result.family == .mac)
        #expect(result.udid?.value == Self.realUDID)
        #expect(try f.roster.devices().isEmpty, "a request is not in the roster")
        #expect(try slots(.mac) == 0)
        let open = try requests.open()
        #expect(open.count == 1)
        let request = try #require(open.first)
        #expect(request.udid.value == Self.realUDID)
        #expect(request.testerID == ann.id)
        #expect(request.model == "VirtualMac2,1")
        #expect(request.serial == "ZDL2M9PTJ3")
        #expect(request.osBuild == "22A380")
        #expect(request.imei == nil, "the empty IMEI is absent")
        #expect(request.verified)

        let approved = try requests.approve(try DeviceIdentifier(Self.realUDID), now: at("2026-11-11"))
        #expect(approved.device.family == .mac)
        #expect(approved.device.model == "VirtualMac2,1")
        #expect(approved.device.testerID == ann.id)
        #expect(approved.device.name == "Ann Lee VirtualMac2,1")
        #expect(approved.device.isPending, "approved, it is registered here and waits for upload to Apple")
        #expect(try f.roster.pendingDevices().map(\.identifier.value) == [Self.realUDID])
        #expect(try slots(.mac) == 1)
        #expect(try requests.open().isEmpty)
        let serial = try f.home.store.read { db in
            try db.queryOne("SELECT serial FROM enrolled_devices WHERE udid = ?", [.text(Self.realUDID)])?.string(0)
        }
        #expect(serial == "ZDL2M9PTJ3")
        #expect(throws: DeviceRequestError.notFound(try DeviceIdentifier(Self.realUDID))) {
            try requests.approve(try DeviceIdentifier(Self.realUDID), now: at("2026-11-11"))
        }
    }

    @Test func theRealReplyTamperedOrReSignedIsUnverifiedAndAddsNothing() async throws {
        try plantRealChallenge(for: ann)
        let directory = try TemporaryDirectory("forged")
        let real = try Self.realReply()
        let marker = Array("<string>ZDL2M9PTJ3".utf8)
        let start = try #require((0 ... real.count - marker.count).first { Array(real[$0 ..< $0 + marker.count]) == marker })
        var tampered = real
        tampered[start + 8] = UInt8(ascii: "Y")
        let content = try CMSSignedPlist(bytes: real).plistBytes
        let device = try await OpenSSLTool.makeDeviceIdentity(in: directory)
        let resigned = try await OpenSSLTool.signDER(content, certificate: device.certificate, key: device.key, certfile: nil, in: directory)
        let fake = try await OpenSSLTool.makeLookalikeAppleChain(in: directory)
        let lookalike = try await OpenSSLTool.signDER(content, certificate: fake.certificate, key: fake.key, certfile: fake.intermediates,
                                                      in: directory)
        let enrollment = DeviceEnrollment(home: f.home)
        for (name, bytes) in [("tampered", tampered), ("re-signed", resigned), ("look-alike chain", lookalike)] {
            let result = try enrollment.receive(bytes, testerID: ann.id, now: at("2026-11-10T10:05:00Z"))
            #expect(result.outcome == .unverified, "\(name)")
            #expect(result.detail?.contains("not signed by an Apple device") == true, "\(name): \(result.detail ?? "")")
            #expect(result.udid == nil, "\(name): nothing of an unverified reply is kept")
        }
        #expect(try requests.open().isEmpty)
        #expect(try f.roster.devices().isEmpty)
        // The challenge was not used up: the genuine reply still counts.
        #expect(try enrollment.receive(real, testerID: ann.id, now: at("2026-11-10T10:06:00Z")).outcome == .requested)
    }

    @Test func aSelfSignedReplyIsUnverifiedUnlessTheServerAllowsItAndThenItIsAnUnverifiedRequest() async throws {
        let replies = try await EnrollmentReplies.make()
        let strict = DeviceEnrollment(home: f.home)
        let challenge = try strict.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let reply = try await replies.reply(challenge: challenge)
        #expect(try strict.receive(reply, testerID: ann.id, now: at("2026-11-10")).outcome == .unverified)
        #expect(try requests.open().isEmpty)
        let lenient = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        #expect(try lenient.receive(reply, testerID: ann.id, now: at("2026-11-10")).outcome == .requested)
        #expect(try requests.open().map(\.verified) == [false])
        #expect(try slots(.iphone) == 0)
    }

    @Test func aTesterMayHaveFiveOpenRequestsAndTheSixthIsRefused() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        func post(_ number: Int, tester: Tester) async throws -> EnrollmentResult {
            let challenge = try enrollment.issueChallenge(testerID: tester.id, now: at("2026-11-10"))
            let reply = try await replies.reply(udid: RosterFixture.udid(number).value, challenge: challenge)
            return try enrollment.receive(reply, testerID: tester.id, now: at("2026-11-10"))
        }
        for number in 1 ... 5 { #expect(try await post(number, tester: ann).outcome == .requested) }
        let sixth = try await post(6, tester: ann)
        #expect(sixth.outcome == .tooManyRequests)
        #expect(sixth.slots?.used == 5)
        #expect(sixth.slots?.limit == 5)
        #expect(try await post(3, tester: ann).outcome == .requested, "an open request sent again is updated, not counted twice")
        #expect(try await post(3, tester: bo).outcome == .requestedBySomeoneElse)
        #expect(try await post(7, tester: bo).outcome == .requested, "the cap is per tester")
        #expect(try requests.open().count == 6)
        #expect(try slots(.iphone) == 0)
        // Deciding one makes room.
        _ = try requests.reject(RosterFixture.udid(1), now: at("2026-11-10"))
        #expect(try await post(6, tester: ann).outcome == .requested)
    }

    @Test func rejectingFreesNothingBecauseTheRequestTookNothing() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        try f.fill(.iphone, count: 3, tester: bo, start: 100)
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        _ = try enrollment.receive(try await replies.reply(challenge: challenge), testerID: ann.id, now: at("2026-11-10"))
        #expect(try slots(.iphone) == 3)
        let rejected = try requests.reject(try DeviceIdentifier("00008120-001A2B3C4D5E6F70"), now: at("2026-11-10"))
        #expect(rejected.testerName == "Ann Lee")
        #expect(try slots(.iphone) == 3)
        #expect(try requests.open().isEmpty)
        #expect(try f.roster.devices().count == 3)
        #expect(throws: DeviceRequestError.notFound(try DeviceIdentifier("00008120-001A2B3C4D5E6F70"))) {
            try requests.reject(try DeviceIdentifier("00008120-001A2B3C4D5E6F70"), now: at("2026-11-10"))
        }
    }

    @Test func approvingIntoAFullFamilyIsRefusedNamingTheRenewalAndTheRequestStaysOpen() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        try f.fill(.iphone, count: 99, tester: bo, start: 100)
        for (number, tester) in [(1, ann), (2, bo)] {
            let challenge = try enrollment.issueChallenge(testerID: tester.id, now: at("2026-11-10"))
            let reply = try await replies.reply(udid: RosterFixture.udid(number).value, challenge: challenge)
            #expect(try enrollment.receive(reply, testerID: tester.id, now: at("2026-11-10")).outcome == .requested)
        }
        _ = try requests.approve(RosterFixture.udid(1), now: at("2026-11-10"))
        #expect(try slots(.iphone) == 100)
        #expect {
            try requests.approve(RosterFixture.udid(2), now: at("2026-11-10"))
        } throws: { error in
            guard case let RosterError.limitReached(_, family, used, limit, _, renews) = error else { return false }
            return family == .iphone && used == 100 && limit == 100 && renews.description == "2027-03-01"
        }
        #expect(try requests.open().map(\.udid) == [RosterFixture.udid(2)])
        // A new request for a full family is refused at once, since it could not be approved this year.
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        let full = try enrollment.receive(try await replies.reply(udid: RosterFixture.udid(3).value, challenge: challenge), testerID: ann.id,
                                          now: at("2026-11-10"))
        #expect(full.outcome == .familyFull)
        #expect(full.renews?.description == "2027-03-01")
    }

    @Test func aRequestFromATesterRemovedSinceCannotBeApprovedButCanBeRejected() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        let challenge = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        #expect(try enrollment.receive(try await replies.reply(challenge: challenge), testerID: bo.id, now: at("2026-11-10")).outcome == .requested)
        _ = try f.roster.removeTester(String(bo.id), now: at("2026-11-11"))
        let udid = try DeviceIdentifier("00008120-001A2B3C4D5E6F70")
        #expect(throws: DeviceRequestError.testerRemoved(udid, testerName: "Bo Chen")) { try requests.approve(udid, now: at("2026-11-11")) }
        #expect(try f.roster.devices().isEmpty)
        #expect(try requests.open().isEmpty, "a removed tester's request is not listed")
        #expect(try requests.reject(udid, now: at("2026-11-11")).testerName == "Bo Chen")
    }

    @Test func theDeviceEnrollingAgainFromAnotherLinkReplacesTheRequestOfARemovedTester() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        let bos = try enrollment.issueChallenge(testerID: bo.id, now: at("2026-11-10"))
        #expect(try enrollment.receive(try await replies.reply(challenge: bos), testerID: bo.id, now: at("2026-11-10")).outcome == .requested)
        let anns = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-10"))
        #expect(try enrollment.receive(try await replies.reply(challenge: anns), testerID: ann.id, now: at("2026-11-10")).outcome
            == .requestedBySomeoneElse, "Bo's request stands while Bo is a tester")
        _ = try f.roster.removeTester(String(bo.id), now: at("2026-11-11"))
        let again = try enrollment.issueChallenge(testerID: ann.id, now: at("2026-11-11"))
        #expect(try enrollment.receive(try await replies.reply(challenge: again), testerID: ann.id, now: at("2026-11-11")).outcome == .requested)
        #expect(try requests.open().map(\.testerName) == ["Ann Lee"])
        _ = try requests.approve(try DeviceIdentifier("00008120-001A2B3C4D5E6F70"), now: at("2026-11-11"))
        #expect(try f.roster.devices().first?.testerID == ann.id)
    }

    @Test func theRuleApprovesTheRequestsOfTestersInItsGroupAtOnce() async throws {
        let replies = try await EnrollmentReplies.make()
        let enrollment = DeviceEnrollment(home: f.home, acceptsUnverified: true)
        _ = try f.roster.setGroups(String(ann.id), groups: ["qa"])
        try requests.setRule(.group("qa"), now: at("2026-11-10"))
        #expect(try requests.rule() == .group("qa"))
        for (number, tester, expected) in [(1, ann, EnrollmentResult.Outcome.registered), (2, bo, .requested)] {
            let challenge = try enrollment.issueChallenge(testerID: tester.id, now: at("2026-11-10"))
            let reply = try await replies.reply(udid: RosterFixture.udid(number).value, challenge: challenge)
            #expect(try enrollment.receive(reply, testerID: tester.id, now: at("2026-11-10")).outcome == expected)
        }
        #expect(try f.roster.devices().map(\.identifier) == [RosterFixture.udid(1)])
        #expect(try f.roster.pendingDevices().map(\.identifier) == [RosterFixture.udid(1)])
        #expect(try slots(.iphone) == 1)
        #expect(try requests.open().map(\.udid) == [RosterFixture.udid(2)])
        try requests.setRule(.off, now: at("2026-11-10"))
        #expect(try requests.rule() == .off)
        #expect(throws: DeviceRequestError.invalidGroup("q/a")) { try requests.setRule(.group("q/a"), now: at("2026-11-10")) }
    }
}

/// The Apple certificates compiled into betactl are exactly those of the fixture chain, and pinned.
@Suite(.enabled(if: SharedFixtures.available, "needs ../shared/fixtures"))
struct AppleDeviceCertificatesTests {
    @Test func theCompiledInChainIsTheFixturesAndEachFingerprintIsPinned() throws {
        let text = String(decoding: try SharedFixtures.data("enrollment/Apple_iPhone_Device_CA_Fullchain.pem"), as: UTF8.self)
        let fixture = text.components(separatedBy: "-----END CERTIFICATE-----").dropLast()
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n-----END CERTIFICATE-----" }
        let embedded = [AppleDeviceCertificates.deviceCAPEM, AppleDeviceCertificates.iPhoneCAPEM, AppleDeviceCertificates.rootCAPEM]
        #expect(embedded == fixture)
        let ders = try embedded.map { pem in
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return [UInt8](try #require(Data(base64Encoded: body)))
        }
        #expect(ders.map { SHA256.hash($0).hex } == AppleDeviceCertificates.chainSHA256)
        #expect(AppleDeviceCertificates.rootCASHA256 == "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
                "Apple Root CA's published SHA-256 fingerprint")
        let names = try ders.map { try Certificate(der: $0).subject.commonName }
        #expect(names == ["Apple iPhone Device CA", "Apple iPhone Certification Authority", "Apple Root CA"])
    }

    @Test func theRealReplyVerifiesAgainstTheCompiledInChain() throws {
        let content = try DeviceReplyVerifier.verify([UInt8](try SharedFixtures.data("enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s")))
        #expect(String(decoding: content, as: UTF8.self).contains("<key>SERIAL</key>\n\t<string>ZDL2M9PTJ3</string>"))
    }
}
