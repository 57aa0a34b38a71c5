import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AppleProfileTests {
    static func app(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }
    /// The fixture app's id, its widget's, and one Apple's inexact filter also matches.
    static let bundleIDs = ["com.example.beta", "com.example.beta.widget", "com.example.betamax"]

    /// 20 devices at Apple (16 enabled iOS ones, 4 Macs), the fixture app released with its widget, the list synced.
    func make(_ scenario: [String: Any] = [:]) throws -> AppleFixture {
        var full: [String: Any] = ["generate_devices": 20, "bundle_ids": Self.bundleIDs]
        full.merge(scenario) { $1 }
        let fixture = try AppleFixture(scenario: full)
        _ = try Archive(home: fixture.home).release(ReleaseRequest(path: Self.app("Beta.ipa"), dsymPaths: [Self.app("Beta.app.dSYM.zip"),
                                                                                                        Self.app("BetaWidget.appex.dSYM.zip")]),
                                                   devices: [], now: Date())
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        return fixture
    }

    @Test func theAppAndItsExtensionEachGetANewAdHocProfileThatIsImported() throws {
        let fixture = try make()
        let before = try fixture.server.calls().count
        let result = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
        let calls = try fixture.server.calls().dropFirst(before)
        #expect(calls.map { "\($0.method) \($0.path.prefix { $0 != "?" })" } == [
            "GET /v1/bundleIds", "GET /v1/certificates", "POST /v1/profiles", "POST /v1/profiles",
        ], "the minimum: bundle ids with their profiles, certificates, one create each")
        #expect(try fixture.server.problems() == [])

        #expect(result.profiles.map(\.bundleID) == ["com.example.beta", "com.example.beta.widget"], "compared exactly: not com.example.betamax")
        #expect(result.profiles.allSatisfy { $0.devices == 16 && $0.replaced == nil })
        #expect(result.profiles[0].name.hasPrefix("betactl com.example.beta 20"))

        let archive = Archive(home: fixture.home)
        let stored = try archive.profiles()
        #expect(Set(stored.map(\.uuid)) == Set(result.profiles.map(\.uuid)), "imported through the archive's import path")
        let profile = try archive.profile(matching: result.profiles[0].uuid)
        #expect(profile.type == .adHoc)
        #expect(profile.applicationIdentifier == "TEAMID1234.com.example.beta")
        #expect(profile.signer != nil, "a real CMS-signed profile")
        let enabled = try fixture.home.store.read { db in
            Set(try db.query("SELECT udid FROM apple_devices WHERE status = 'ENABLED' AND device_class != 'MAC'").compactMap { $0.string(0) })
        }
        #expect(Set(profile.provisionedDevices ?? []) == enabled)
        #expect(profile.developerCertificates.first?.serialNumberHex.uppercased().hasSuffix(result.certificateSerial.uppercased()) == true)
    }

    @Test func regeneratingDeletesTheProfileBetactlMadeBeforeCreatingItsSuccessor() throws {
        let fixture = try make()
        let first = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(),
                                                           now: Date().addingTimeInterval(-3600))
        let before = try fixture.server.calls().count
        let second = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
        let calls = try fixture.server.calls().dropFirst(before)
        #expect(calls.map { "\($0.method) \($0.status)" } == ["GET 200", "GET 200", "DELETE 204", "POST 201", "DELETE 204", "POST 201"])
        #expect(second.profiles.map(\.replaced) == first.profiles.map(\.name))
        #expect(second.calls == 6)
        #expect(try fixture.server.problems() == [])
    }

    @Test func aFailedCreateAfterTheDeleteSaysSoWithTheCommandThatRetries() throws {
        let fixture = try make(["fail_profile_create": true,
                                "profiles": [["name": "betactl com.example.beta 2026-01-01 10:00", "bundle_id": "com.example.beta"]]])
        do {
            _ = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
            Issue.record("the create failed, so regeneration must fail")
        } catch let error as AppStoreConnectError {
            guard case .profileCreateFailedAfterDelete(let bundle, let deleted, _) = error else { Issue.record("\(error)"); return }
            #expect(bundle == "com.example.beta")
            #expect(deleted == "betactl com.example.beta 2026-01-01 10:00")
            #expect(error.description.contains("has no betactl ad hoc profile now"))
            #expect(error.description.contains("run `betactl apple profile com.example.beta` again"))
            #expect(error.description.contains("no current certificates"), "Apple's own words, as a sentence")
        }
        #expect(try fixture.server.calls().suffix(2).map(\.method) == ["DELETE", "POST"])
    }

    @Test func severalDistributionCertificatesNeedOneChosenBySerial() throws {
        let fixture = try make(["certificates": 2])
        #expect {
            _ = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
        } throws: { error in
            "\(error)".contains("the team has 2 distribution certificates") && "\(error)".contains("--certificate SERIAL")
        }
        let result = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: "1a2b3c4d01", client: try fixture.client(),
                                                            now: Date())
        #expect(result.certificateSerial.uppercased().hasSuffix("1A2B3C4D01"))
    }

    @Test func theCodeSigningIdentitysCertificateIsChosenAmongSeveral() throws {
        let fixture = try make(["certificates": 2])
        // An identity whose certificate the team does not have: refused, naming the identity.
        let foreign = try TemporaryDirectory("foreign-identity")
        try TestKeys.rsa("foreign-distribution", copiedTo: foreign.child("key.pem"))
        let made = try runToolNow("openssl", ["req", "-x509", "-key", foreign.child("key.pem"), "-days", "30", "-subj", "/CN=iPhone Distribution: Other",
                                              "-out", foreign.child("cert.pem")])
        #expect(made.status == 0, "\(made.error)")
        #expect(try runToolNow("openssl", ["x509", "-in", foreign.child("cert.pem"), "-outform", "DER", "-out", foreign.child("cert.der")]).status == 0)
        _ = try CodeIdentityStore(home: fixture.home).save(
            certificatePEM: try String(contentsOfFile: foreign.child("cert.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: foreign.child("key.pem"), encoding: .utf8),
            certificateDER: [UInt8](try Data(contentsOf: URL(fileURLWithPath: foreign.child("cert.der")))), chainCount: 1, now: Date())
        #expect {
            _ = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
        } throws: { error in
            "\(error)".contains("no distribution certificate of the team has serial number") && "\(error)".contains("code-identity")
        }
        // The team's second distribution certificate is the one betactl signs with.
        let pem = fixture.server.directory.child("state/dist1.pem")
        let der = try runToolNow("openssl", ["x509", "-in", pem, "-outform", "DER", "-out", fixture.server.directory.child("dist1.der")])
        #expect(der.status == 0, "\(der.error)")
        _ = try CodeIdentityStore(home: fixture.home).save(
            certificatePEM: try String(contentsOfFile: pem, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: fixture.server.directory.child("state/dist1.key"), encoding: .utf8),
            certificateDER: [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.server.directory.child("dist1.der")))), chainCount: 1, now: Date())
        let result = try fixture.account.regenerateProfiles(for: "com.example.beta", certificate: nil, client: try fixture.client(), now: Date())
        #expect(result.certificateSerial.uppercased().hasSuffix("1A2B3C4D01"))
        #expect(try fixture.server.problems() == [])
    }

    @Test func aBundleIDAppleDoesNotHaveIsNamed() throws {
        let fixture = try make()
        #expect(throws: AppStoreConnectError.unknownBundleID("com.example.other")) {
            _ = try fixture.account.regenerateProfiles(for: "com.example.other", certificate: nil, client: try fixture.client(), now: Date())
        }
    }
}
