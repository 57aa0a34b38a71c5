import AppleFormats
import Foundation
import Testing
import TestSupport

/// Device enrolment: the profile read back by Python's plistlib, device replies signed by openssl,
/// the result pages. Most run in this process; the tests of the server process staying up, of
/// urllib as the posting client and of the server's log start `betactl serve`.
@Suite(.serialized, .enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct EnrollmentIntegrationTests {
    static let udid = "00008120-001A2B3C4D5E6F70"

    /// The instant an ISO 8601 time names (as `BETACTL_NOW` pins `serve`'s clock).
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? Date.distantPast }

    @Test func theServedProfileCarriesEveryKeyPlistlibReads() async throws {
        let fixture = try await EnrollmentFixture(publicURL: "https://beta.example.com/acme")
        let server = try fixture.inProcess()
        defer { server.stop() }
        var seen: [[String: Any]] = []
        for _ in 0 ..< 2 {
            let (response, _) = try await fixture.profile(server, token: fixture.annToken)
            #expect(response.headers["content-type"] == "application/x-apple-aspen-config")
            #expect(response.headers["cache-control"] == "private, no-store")
            let file = try fixture.directory.write("served.mobileconfig", Array(response.body))
            seen.append(try await runClient("enroll_device.py", ["read-profile", file]))
        }
        func field(_ keys: [String: Any], _ name: String) -> (type: String?, value: Any?) {
            let entry = keys[name] as? [String: Any]
            return (entry?["type"] as? String, entry?["value"])
        }
        let first = seen[0], second = seen[1]
        #expect(field(first, "PayloadType").value as? String == "Profile Service")
        #expect(field(first, "PayloadType").type == "string")
        #expect(field(first, "PayloadVersion").type == "integer")
        #expect(field(first, "PayloadVersion").value as? Int == 1)
        #expect(field(first, "PayloadIdentifier").value as? String == "com.example.beta.betactl.enroll")
        #expect(field(second, "PayloadIdentifier").value as? String == "com.example.beta.betactl.enroll", "stable")
        let uuid = try #require(field(first, "PayloadUUID").value as? String)
        #expect(UUID(uuidString: uuid) != nil)
        #expect(field(second, "PayloadUUID").value as? String != uuid, "fresh for each download")
        #expect(field(first, "PayloadDisplayName").value as? String == "Acme Beta: register this device")
        #expect(field(first, "PayloadOrganization").value as? String == "Acme Beta")
        #expect((field(first, "PayloadDescription").value as? String)?.contains("UDID") == true)
        #expect(field(first, "PayloadContent").type == "dict")
        let content = try #require(field(first, "PayloadContent").value as? [String: Any])
        #expect(field(content, "URL").value as? String == "https://beta.example.com/acme/t/\(fixture.annToken)/enroll",
                "absolute and https, from the public URL as the manifest's links are")
        let attributes = try #require(field(content, "DeviceAttributes").value as? [[String: Any]])
        #expect(attributes.compactMap { $0["value"] as? String } == ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"])
        let challenge = try #require(field(content, "Challenge").value as? String)
        #expect(challenge.count >= 40)
        let secondContent = try #require(field(second, "PayloadContent").value as? [String: Any])
        #expect(field(secondContent, "Challenge").value as? String != challenge, "a fresh challenge each time")
    }

    @Test func behindATrustedProxyTheReplyURLIsHttpsLikeTheManifestsLinks() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try fixture.inProcess(trustedProxies: ["127.0.0.1"])
        defer { server.stop() }
        let response = try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll.mobileconfig",
                                      ["-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: beta.example.org"])
        let service = try #require(try MobileConfig(bytes: Array(response.body)).profile.profileService)
        #expect(service.url == "https://beta.example.org/t/\(fixture.annToken)/enroll")
        let manifest = try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll",
                                      ["-A", WebFixture.iPhone, "-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: beta.example.org"])
        #expect(manifest.text.contains("href=\"https://beta.example.org/t/\(fixture.annToken)/enroll.mobileconfig\""))
        #expect(!manifest.text.contains("id=\"insecure\""))
    }

    @Test func aNewDeviceIsRegisteredAndTheDuplicateTakesNoSecondSlot() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
        let registered = try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: challenge))
        #expect(registered.outcome == "registered")
        #expect(registered.page.contains("Device registered"))
        #expect(registered.page.contains("It will install from the next build whose profile includes it"))
        #expect(registered.page.contains("“Ann&#39;s iPhone” (iPhone 14 Pro)"))
        let devices = try fixture.devices()
        #expect(devices.count == 1)
        #expect(devices.first?["udid"] as? String == Self.udid)
        #expect(devices.first?["tester"] as? String == "Ann Lee")
        #expect(devices.first?["pending"] as? Bool == true)
        let (_, again) = try await fixture.profile(server, token: fixture.annToken)
        let duplicate = try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: again))
        #expect(duplicate.outcome == "already-registered")
        #expect(duplicate.page.contains("Already registered"))
        #expect(try fixture.devices().count == 1)
        let usage = try JSONSerialization.jsonObject(with: Data(try fixture.cli.ok(["devices", "--json"]).utf8)) as? [String: Any]
        #expect(((usage?["usage"] as? [String: Any])?["iphone"] as? [String: Any])?["used"] as? Int == 1)
        // The tester page now lists it as pending.
        let page = try await server.fetch("\(server.base)/t/\(fixture.annToken)", ["-A", WebFixture.iPhone])
        #expect(page.text.contains("class=\"device status-pending\""))
        #expect(page.text.contains("iPhone 14 Pro ·····5E6F70"))
        #expect(page.text.contains("Pending: registered, waiting for the next build whose profile includes it"))
        #expect(page.text.contains("href=\"\(server.base)/t/\(fixture.annToken)/enroll\""))
    }

    @Test func aFullFamilyIsRefusedWithTheRenewalDate() async throws {
        let fixture = try await EnrollmentFixture()
        let list = "Device ID\tDevice Name\tDevice Platform\n" + (0 ..< 100).map { index in
            String(format: "00008030-%016X\tQA iPhone %d\tios\n", 0x1000 + index, index)
        }.joined()
        try fixture.cli.ok(["import-devices", try fixture.directory.write("hundred.txt", Array(list.utf8)), "--tester", "bo@example.com"])
        let server = try fixture.inProcess()
        defer { server.stop() }
        let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
        let full = try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: challenge))
        #expect(full.outcome == "family-full")
        #expect(full.page.contains("No room for this iPhone"))
        #expect(full.page.contains("all 100 of this year&#39;s are used until 2027-03-01"))
        #expect(try fixture.devices().count == 100)
    }

    @Test func anExpiredChallengeAsksToStartAgain() async throws {
        let fixture = try await EnrollmentFixture()
        let early = try fixture.inProcess { $0.now = { Self.date("2026-11-10T10:00:00Z") } }
        let (_, challenge) = try await fixture.profile(early, token: fixture.annToken)
        early.stop()
        let late = try fixture.inProcess { $0.now = { Self.date("2026-11-10T10:31:00Z") } }
        defer { late.stop() }
        let expired = try await fixture.outcome(late, token: fixture.annToken, try await fixture.reply(challenge: challenge))
        #expect(expired.outcome == "expired")
        #expect(expired.page.contains("The link expired"))
        #expect(expired.page.contains(">Start again</a>"))
        #expect(expired.page.contains("href=\"\(late.base)/t/\(fixture.annToken)/enroll\""))
        #expect(try fixture.devices().isEmpty)
    }

    @Test func aChallengeUsedTwiceAndAnotherTestersChallengeAddNothing() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
        let first = try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: challenge))
        #expect(first.outcome == "registered")
        let replay = try await fixture.outcome(server, token: fixture.annToken,
                                               try await fixture.reply(udid: "00008120-0000000000000099", challenge: challenge))
        #expect(replay.outcome == "challenge-used")
        #expect(replay.page.contains("This profile was already used"))
        let (_, bos) = try await fixture.profile(server, token: fixture.boToken)
        let wrong = try await fixture.outcome(server, token: fixture.annToken,
                                              try await fixture.reply(udid: "00008120-0000000000000098", challenge: bos))
        #expect(wrong.outcome == "wrong-tester")
        #expect(wrong.page.contains("made for someone else"))
        #expect(try fixture.devices().map { $0["udid"] as? String } == [Self.udid])
    }

    @Test func garbageTruncatedForgedAndOversizedRepliesGetTheirPageAndTheServerStaysUp() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try await fixture.serve()
        defer { server.stop() }
        let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
        let good = try await fixture.reply(challenge: challenge)
        let garbage = try await fixture.outcome(server, token: fixture.annToken, patternBytes(4000))
        #expect(garbage.outcome == "unreadable")
        #expect(garbage.page.contains("The device&#39;s answer could not be read"))
        #expect(garbage.page.contains("Details: the enrolment reply is not readable"))
        #expect(try await fixture.outcome(server, token: fixture.annToken, Array(good.prefix(good.count - 40))).outcome == "unreadable")
        #expect(try await fixture.outcome(server, token: fixture.annToken, []).outcome == "unreadable")
        let forged = try await fixture.reply(challenge: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo")
        #expect(try await fixture.outcome(server, token: fixture.annToken, forged).outcome == "unknown-challenge")
        let huge = try await fixture.outcome(server, token: fixture.annToken, good + patternBytes(1 << 20))
        #expect(huge.outcome == "too-large")
        #expect(huge.page.contains("The device&#39;s answer was too large"))
        #expect(try fixture.devices().isEmpty)
        #expect(try await curl("\(server.base)/healthz").status == 200)
        // None of that used the challenge: the genuine reply still registers, whatever Content-Type it
        // comes with (the body is told by its bytes).
        let file = try fixture.directory.write("good.der", good)
        let posted = try await curl("\(server.base)/t/\(fixture.annToken)/enroll",
                                    ["--data-binary", "@\(file)", "-H", "Content-Type: application/x-www-form-urlencoded"])
        #expect(posted.status == 301)
        let location = try #require(posted.headers["location"])
        #expect(try await curl(location).text.contains("class=\"message enroll-result outcome-registered\""))
        // Far beyond what is drained, the connection is refused rather than read.
        let enormous = try await fixture.post(server, token: fixture.annToken, patternBytes(3 << 20))
        #expect(enormous.status == 413)
        #expect(try await curl("\(server.base)/healthz").status == 200)
    }

    @Test func anUnknownLinkIsRedirectedToTheNotFoundPageWithoutEchoingIt() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let (status, location) = try await fixture.post(server, token: "no-such-token%0d%0aX-Evil:1", patternBytes(100))
        #expect(status == 301)
        #expect(location == "\(server.base)/enroll/unknown-link")
        #expect(try await server.fetch(location).status == 404)
        #expect(try await server.fetch("\(server.base)/t/no-such-token/enroll").status == 404)
        #expect(try await server.fetch("\(server.base)/t/no-such-token/enroll.mobileconfig").status == 404)
        #expect(try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll/done/not-a-result").status == 404)
    }

    @Test func withASigningIdentityTheProfileIsSignedAndOpenSSLVerifiesIt() async throws {
        let fixture = try await EnrollmentFixture()
        let identity = try await OpenSSLTool.makeIdentity(in: fixture.directory, commonName: "Acme Enrollment")
        try fixture.cli.ok(["signing-identity", "import", identity.certificate, identity.key])
        let server = try fixture.inProcess()
        defer { server.stop() }
        let (response, challenge) = try await fixture.profile(server, token: fixture.annToken)
        #expect(response.body.first == 0x30, "CMS SignedData, not a bare plist")
        let content = try await OpenSSLTool.verify(Array(response.body), caFile: identity.caCertificate, in: fixture.directory)
        let inner = try ConfigurationProfile(plistBytes: Array(content))
        #expect(inner.profileService?.challenge == challenge)
        #expect(try MobileConfig(bytes: Array(response.body)).signer?.subject.commonName == "Acme Enrollment")
        let page = try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll", ["-A", WebFixture.iPhone])
        #expect(page.text.contains("It is signed by “Acme Enrollment”"))
        // The signed profile's challenge registers the device like any other.
        #expect(try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: challenge)).outcome == "registered")
    }

    @Test func withoutLibcryptoTheServerStartsAndServesTheProfileUnsigned() async throws {
        let fixture = try await EnrollmentFixture()
        let identity = try await OpenSSLTool.makeIdentity(in: fixture.directory)
        try fixture.cli.ok(["signing-identity", "import", identity.certificate, identity.key])
        let server = try await fixture.serve(environment: ["BETACTL_LIBCRYPTO": fixture.directory.child("no-libcrypto.so")])
        defer { server.stop() }
        let (response, challenge) = try await fixture.profile(server, token: fixture.annToken)
        #expect(String(decoding: response.body.prefix(5), as: UTF8.self) == "<?xml")
        try await waitUntil("the log says why the profile went out unsigned") {
            server.errorLines.contains { $0.contains("the enrolment profile was served unsigned: libcrypto (OpenSSL) could not be loaded") }
        }
        let page = try await curl("\(server.base)/t/\(fixture.annToken)/enroll", ["-A", WebFixture.iPhone])
        #expect(page.text.contains("Settings labels it <strong>Not Verified</strong>"))
        #expect(try await fixture.outcome(server, token: fixture.annToken, try await fixture.reply(challenge: challenge)).outcome == "registered")
    }

    @Test func theEnrolPageExplainsTheStepsAndDesktopsGetTheCode() async throws {
        let fixture = try await EnrollmentFixture()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let phone = try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll", ["-A", WebFixture.iPhone])
        #expect(phone.status == 200)
        #expect(phone.headers["referrer-policy"] == "no-referrer")
        #expect(phone.text.contains("href=\"\(server.base)/t/\(fixture.annToken)/enroll.mobileconfig\""))
        for step in ["Profile Downloaded", "Install", "Not Verified", "only reads this device's identifiers", "removes it again"] {
            #expect(phone.text.contains(step), "the page explains \(step)")
        }
        #expect(!phone.text.contains("id=\"open-on-device\""))
        let desktop = try await server.fetch("\(server.base)/t/\(fixture.annToken)/enroll", ["-A", WebFixture.desktop])
        #expect(desktop.text.contains("id=\"open-on-device\""))
        for picture in ["enroll-download.svg", "enroll-settings.svg", "enroll-done.svg"] {
            let asset = try await server.fetch("\(server.base)/assets/\(picture)")
            #expect(asset.status == 200)
            #expect(asset.headers["content-type"]?.hasPrefix("image/svg+xml") == true)
        }
    }
}
