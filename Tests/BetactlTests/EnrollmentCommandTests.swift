import BetaKit
import Foundation
import Testing
import TestSupport

/// The command line of device enrolment: the signing identity, and the pending devices testers
/// registered themselves (`devices --pending`, `export-devices --pending`, `check-profile`).
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct EnrollmentCommandTests {
    struct IdentityJSON: Decodable {
        var subject: String
        var expires: String
        var expired: Bool
        var chainCertificates: Int
        var canSign: Bool
    }

    @Test func aSigningIdentityIsImportedShownReplacedAndRemoved() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        #expect(try cli.ok("signing-identity").contains("No signing identity: enrolment profiles are served unsigned"))
        #expect(try cli.ok("signing-identity", "show", "--json") == "null\n")
        let made = try await OpenSSLTool.makeIdentity(in: dir)
        let imported = try cli.ok("signing-identity", "import", made.certificate, made.key)
        #expect(imported.hasPrefix("Imported signing identity “Beta Enrollment Signing”"))
        #expect(imported.contains("no chain certificates"))
        let shown = try JSONDecoder().decode(IdentityJSON.self, from: Data(try cli.ok("signing-identity", "show", "--json").utf8))
        #expect(shown.subject == "Beta Enrollment Signing")
        #expect(!shown.expired)
        #expect(shown.canSign)
        // A .p12 with its chain replaces it.
        let p12 = try await OpenSSLTool.pkcs12(made, password: "correct horse", in: dir)
        let passwordFile = try dir.write("password.txt", Array("correct horse\n".utf8))
        #expect(try cli.ok("signing-identity", "import", p12, "--password-file", passwordFile).contains("1 chain certificate"))
        #expect(try JSONDecoder().decode(IdentityJSON.self, from: Data(try cli.ok("signing-identity", "show", "--json").utf8)).chainCertificates == 1)
        // The key never reaches anything readable by others.
        let mode = try FileManager.default.attributesOfItem(atPath: dir.child("home/betactl.sqlite"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try cli.ok("signing-identity", "remove").hasPrefix("Removed the signing identity"))
        let again = try cli.run("signing-identity", "remove")
        #expect(again.status == 1)
        #expect(again.stderr.contains("no signing identity is stored, so there is nothing to remove"))
    }

    @Test func badIdentitiesAreInvalidInputAndUsageMistakesAreUsageErrors() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let made = try await OpenSSLTool.makeIdentity(in: dir)
        let other = try await OpenSSLTool.makeIdentity(in: dir, name: "other")
        let mismatch = try cli.run("signing-identity", "import", made.certificate, other.key)
        #expect(mismatch.status == 65)
        #expect(mismatch.stderr.contains("the private key belongs to none of the 1 certificate given"))
        let p12 = try await OpenSSLTool.pkcs12(made, password: "right", in: dir)
        let wrong = try cli.run("signing-identity", "import", p12, "--password-file", try dir.write("wrong.txt", Array("wrong".utf8)))
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("the .p12 file could not be opened"))
        #expect(try cli.run("signing-identity", "import").status == 64)
        #expect(try cli.run("signing-identity", "import", made.certificate, made.key, made.key).status == 64)
        #expect(try cli.run("signing-identity", "rotate").status == 64)
        #expect(try cli.run("signing-identity", "import", dir.child("missing.pem"), made.key).status == 65)
        #expect(try cli.ok("signing-identity").contains("No signing identity"), "nothing was stored by the failures")
    }

    @Test func withoutLibcryptoImportingSaysWhatToInstall() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"), extraEnvironment: ["BETACTL_LIBCRYPTO": dir.child("no-such-libcrypto.so")])
        try cli.ok("init")
        let made = try await OpenSSLTool.makeIdentity(in: dir)
        let result = try cli.run("signing-identity", "import", made.certificate, made.key)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: libcrypto (OpenSSL) could not be loaded ("))
        #expect(result.stderr.contains("apt install libssl3"))
        // Everything else still works.
        #expect(try cli.ok("devices").contains("Membership year"))
    }

    @Test func pendingDevicesAreListedExportedAndCheckedUntilAProfileIncludesThem() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--membership-renewal", "2027-03-01")
        try cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com")
        try cli.ok("add-device", "ann@example.com", "00008110-0000000000000D04", "--model", "iPhone16,1", "--name", "Ann's old phone")
        // Ann registers her iPhone from its own page (the device's reply signed as a device signs it).
        let inProfile = "00008030-0000000000000A01"
        let home = try Home.open(at: dir.child("home"))
        let ann = try Roster(home: home).tester(matching: "ann@example.com")
        let enrollment = DeviceEnrollment(home: home)
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: Date())
        let device = try await OpenSSLTool.makeDeviceIdentity(in: dir)
        let reply = try await OpenSSLTool.signDER(OpenSSLTool.deviceReplyPlist(udid: inProfile, product: "iPhone15,2", deviceName: nil, challenge: challenge),
                                                  certificate: device.certificate, key: device.key, in: dir)
        #expect(try enrollment.receive(reply, testerID: ann.id, now: Date()).outcome == .registered)

        let pending = try cli.ok("devices", "--pending")
        #expect(pending.hasPrefix("1 device is registered here but in no ad hoc profile yet."))
        #expect(pending.contains("\(inProfile)  Ann Lee iPhone 14 Pro  iPhone 14 Pro  Ann Lee"))
        #expect(!pending.contains("D04"))
        let all = try cli.ok("devices")
        #expect(all.components(separatedBy: "\n").contains { $0.hasPrefix(inProfile) && $0.contains(" pending ") })
        #expect(all.components(separatedBy: "\n").contains { $0.hasPrefix("00008110-0000000000000D04") && $0.contains(" active ") })
        let json = try JSONSerialization.jsonObject(with: Data(try cli.ok("devices", "--pending", "--json").utf8)) as? [String: Any]
        let listed = try #require(json?["devices"] as? [[String: Any]])
        #expect(listed.map { $0["udid"] as? String } == [inProfile])
        #expect(listed.first?["pending"] as? Bool == true)
        #expect(try cli.ok("export-devices", "--pending") == "Device ID\tDevice Name\tDevice Platform\n\(inProfile)\tAnn Lee iPhone 14 Pro\tios\n")
        #expect(try cli.ok("export-devices").contains("00008110-0000000000000D04\tAnn's old phone\tios"))
        #expect(try cli.ok("show-tester", "ann@example.com").contains(" pending "))

        // check-profile names the pending device; once the regenerated profile is imported, nothing is pending.
        // A development profile that lists the device does not end pending: builds are signed with the ad hoc one.
        try cli.ok("import-profile", LocalFixtures.url("formats/profiles/beta_development.mobileprovision").path)
        let check = try JSONSerialization.jsonObject(with: Data(try cli.ok("check-profile", "--json").utf8)) as? [String: Any]
        let listedPending = try #require(check?["pendingDevices"] as? [[String: Any]])
        #expect(listedPending.map { $0["udid"] as? String } == [inProfile])
        let text = try cli.ok("check-profile")
        #expect(text.contains("warning: 1 device registered from a tester's device is pending, in no ad hoc profile yet: Ann Lee: Ann Lee iPhone 14 Pro (\(inProfile)); upload it with `betactl export-devices --pending --output pending.txt`"))
        try cli.ok("import-profile", LocalFixtures.url("formats/profiles/beta_adhoc.mobileprovision").path)
        #expect(try cli.ok("devices", "--pending").hasPrefix("No pending devices"))
        #expect(try cli.ok("export-devices", "--pending") == "Device ID\tDevice Name\tDevice Platform\n")
    }
}
