import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// Issue 17's attack against `betactl serve` as a separate process: one tester link, a self-made
/// certificate, 86 made-up UDIDs. On a real server none is added or requested; on a server that
/// takes unverified replies they become requests, at most 5 open per tester, and the rate limits
/// answer. Then the one real device reply enrols, as a Mac, once approved. The attacks and the
/// server's warnings use a real process; the address limit and the real reply run in this process.
@Suite(.serialized, .enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct EnrollmentAttackTests {
    static let realUDID = "78897E40-F532-5DE0-A7DC-56BAC5CEEB9C"

    /// Runs the attack: `count` profiles downloaded from Ann's link, each answered by a reply for a
    /// made-up UDID signed with the fixture's self-made device certificate.
    static func forge(_ fixture: EnrollmentFixture, _ server: ServeProcess, count: Int) async throws
        -> (outcomes: [String: Int], order: [String], seconds: Double, pages: [String: String]) {
        let answer = try await runClient("enroll_device.py", ["forge", server.base, fixture.annToken, String(count),
                                                              fixture.device.certificate, fixture.device.key, fixture.directory.path])
        return (answer["outcomes"] as? [String: Int] ?? [:], answer["order"] as? [String] ?? [], answer["seconds"] as? Double ?? 0,
                answer["pages"] as? [String: String] ?? [:])
    }

    /// Slots used in the iPhone family, as `devices --json` counts them.
    static func iPhoneSlots(_ fixture: EnrollmentFixture) throws -> Int? {
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.cli.ok(["devices", "--json"]).utf8)) as? [String: Any]
        return ((json?["usage"] as? [String: Any])?["iphone"] as? [String: Any])?["used"] as? Int
    }

    static func openRequests(_ fixture: EnrollmentFixture) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.cli.ok(["requests", "--json"]).utf8)) as? [String: Any]
        return json?["requests"] as? [[String: Any]] ?? []
    }

    @Test func eightySixForgedRepliesThroughOneLinkAddNothingAndTakeNoSlot() async throws {
        let fixture = try await EnrollmentFixture(strict: true)
        // No rate limit, so every forgery reaches the signature check.
        let server = try await fixture.serve(["--enroll-rate-limit", "0"])
        defer { server.stop() }
        let attack = try await Self.forge(fixture, server, count: 86)
        #expect(attack.outcomes == ["unverified": 86], "\(attack.order)")
        let page = try #require(attack.pages["unverified"])
        #expect(page.contains("The device&#39;s answer could not be verified"))
        #expect(page.contains("Its signature is not that of an Apple device, so nothing was registered or requested."))
        #expect(try fixture.devices().isEmpty)
        #expect(try Self.openRequests(fixture).isEmpty)
        #expect(try Self.iPhoneSlots(fixture) == 0)
        // The admin can still register a real device: nothing was spent.
        try fixture.cli.ok(["add-device", "Ann Lee", "00008110-0000000000000A01", "--model", "iPhone16,1"])
        #expect(try Self.iPhoneSlots(fixture) == 1)
        #expect(!server.errorLines.contains { $0.contains("NOT VERIFIED") }, "a real server gives no such warning")
    }

    @Test func withUnverifiedRepliesAllowedTheForgeriesAreFiveRequestsAndTheRestIsRefusedOrRateLimited() async throws {
        let fixture = try await EnrollmentFixture(strict: true)
        let server = try await fixture.serve(["--allow-unverified-enrollment"])
        defer { server.stop() }
        #expect(server.errorLines.contains { $0.contains("--allow-unverified-enrollment: enrolment replies are NOT VERIFIED") },
                "the server says so at start: \(server.errorLines)")
        let attack = try await Self.forge(fixture, server, count: 86)
        #expect(attack.outcomes["requested"] == 5, "\(attack.order)")
        #expect(Array(attack.order.prefix(6)) == ["requested", "requested", "requested", "requested", "requested", "too-many-requests"])
        #expect(attack.outcomes.values.reduce(0, +) == 86)
        #expect(Set(attack.outcomes.keys).isSubset(of: ["requested", "too-many-requests", "rate-limited"]), "\(attack.outcomes)")
        // 6 at once, then one a minute every 10 s: however slow the machine, far fewer than 86 get through.
        let allowed = 6 + Int(attack.seconds / 10) + 1
        #expect(attack.outcomes["rate-limited", default: 0] >= 86 - allowed, "\(attack.outcomes) in \(attack.seconds) s")
        #expect(try #require(attack.pages["too-many-requests"]).contains("You already have 5 devices waiting for approval"))
        #expect(try #require(attack.pages["rate-limited"]).contains("Registrations from this link are limited to 6 a minute (6 at once)"))
        let open = try Self.openRequests(fixture)
        #expect(open.count == 5)
        #expect(open.allSatisfy { $0["verified"] as? Bool == false && $0["tester"] as? String == "Ann Lee" })
        #expect(try fixture.devices().isEmpty, "requests are not devices")
        #expect(try Self.iPhoneSlots(fixture) == 0, "and take no slot")
        // Another tester's link has its own allowance and its own cap.
        let (_, challenge) = try await fixture.profile(server, token: fixture.boToken)
        let bo = try await fixture.outcome(server, token: fixture.boToken, try await fixture.reply(challenge: challenge))
        #expect(bo.outcome == "requested")
        #expect(bo.page.contains("Your request to register “Ann&#39;s iPhone” (iPhone 14 Pro) for Bo Chen was sent. The team approves it, then the device is registered with Apple and a build for it is prepared"))
    }

    @Test func repliesFromOneAddressAreLimitedOverAllLinks() async throws {
        let fixture = try await EnrollmentFixture(strict: true)
        var tokens = [fixture.annToken, fixture.boToken]
        for name in ["Cy Dee", "Di Eve"] { tokens.append(try WebFixture.token(fixture.cli.ok(["add-tester", name, "--json"]))) }
        // One a minute per link, three per address.
        let server = try fixture.inProcess { $0.enrollment.setRate(1) }
        defer { server.stop() }
        let started = Date()
        var order: [String] = []
        var pages: [String: String] = [:]
        for token in tokens + [tokens[0]] {
            let answer = try await fixture.outcome(server, token: token, Array("not a reply 0".utf8))
            order.append(answer.outcome)
            pages[answer.outcome] = answer.page
        }
        // A token comes back every 20 s per address and 60 s per link; the assertions hold unless the posts took that long.
        if Date().timeIntervalSince(started) < 20 {
            #expect(order == ["unreadable", "unreadable", "unreadable", "rate-limited-address", "rate-limited"])
            #expect(pages["rate-limited-address"]?.contains("Registrations from your network address are limited to 3 a minute (3 at once)") == true)
            #expect(pages["rate-limited"]?.contains("Registrations from this link are limited to 1 a minute (1 at once)") == true)
        }
        #expect(try fixture.devices().isEmpty)
    }

    /// Hands the real reply's challenge to Ann's link (the reply answered a profile another server served).
    static func plantRealChallenge(_ fixture: EnrollmentFixture) throws -> Home {
        let home = try Home.open(at: fixture.cli.home)
        let ann = try Roster(home: home).tester(matching: "ann@example.com")
        try home.store.write { db in
            try db.query("INSERT INTO enrollment_challenges (digest, tester_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                         [.text(InviteToken.digest("8gLEIttrT7qbLOZs3XzL5XPgNXCliGwRLtn2Lfe4GBsa7g6MGm2sJjicKrLFal4D")), .integer(ann.id),
                          .text(Timestamp.string(Date())), .text(Timestamp.string(Date().addingTimeInterval(1800)))])
        }
        return home
    }

    @Test(.enabled(if: SharedFixtures.available, "needs ../shared/fixtures"))
    func withoutLibcryptoEvenTheRealReplyIsUnverifiedAndThePageSaysWhy() async throws {
        let fixture = try await EnrollmentFixture(strict: true)
        let server = try await fixture.serve(environment: ["BETACTL_LIBCRYPTO": fixture.directory.child("no-such-libcrypto.so")])
        defer { server.stop() }
        _ = try Self.plantRealChallenge(fixture)
        let real = [UInt8](try SharedFixtures.data("enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s"))
        let result = try await fixture.outcome(server, token: fixture.annToken, real)
        #expect(result.outcome == "unverified")
        #expect(result.page.contains("libcrypto (OpenSSL) could not be loaded"))
        #expect(result.page.contains("apt install libssl3"))
        #expect(try Self.openRequests(fixture).isEmpty)
        #expect(try fixture.devices().isEmpty)
    }

    @Test(.enabled(if: SharedFixtures.available, "needs ../shared/fixtures"))
    func theRealDeviceReplyIsVerifiedRequestedAndOnceApprovedEnrolsAsAMac() async throws {
        let fixture = try await EnrollmentFixture(strict: true)
        let server = try fixture.inProcess()
        defer { server.stop() }
        let home = try Self.plantRealChallenge(fixture)
        let real = [UInt8](try SharedFixtures.data("enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s"))
        let result = try await fixture.outcome(server, token: fixture.annToken, real)
        #expect(result.outcome == "requested")
        #expect(result.page.contains("Request sent"))
        #expect(result.page.contains("The team approves it, then the device is registered with Apple and a build for it is prepared"))
        let open = try Self.openRequests(fixture)
        #expect(open.count == 1)
        #expect(open.first?["udid"] as? String == Self.realUDID)
        #expect(open.first?["family"] as? String == "mac")
        #expect(open.first?["model"] as? String == "VirtualMac2,1")
        #expect(open.first?["serial"] as? String == "ZDL2M9PTJ3")
        #expect(open.first?["verified"] as? Bool == true)
        #expect(try fixture.devices().isEmpty)

        try fixture.cli.ok(["approve-device", Self.realUDID])
        let devices = try fixture.devices()
        #expect(devices.count == 1)
        #expect(devices.first?["family"] as? String == "mac")
        #expect(devices.first?["model"] as? String == "VirtualMac2,1")
        #expect(devices.first?["pending"] as? Bool == true)
        #expect(try fixture.cli.ok(["export-devices", "--pending"]).contains("\(Self.realUDID)\tAnn Lee VirtualMac2,1\tmac"))
        // The same reply again is not a second device: it is Ann's already.
        try home.store.write { db in try db.query("UPDATE enrollment_challenges SET used_at = NULL") }
        #expect(try await fixture.outcome(server, token: fixture.annToken, real).outcome == "already-registered")
    }
}
