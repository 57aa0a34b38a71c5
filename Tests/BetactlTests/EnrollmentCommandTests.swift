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

    @Test func requestsAreListedApprovedRejectedAndApprovedByTheRuleFromTheCommandLine() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--membership-renewal", "2027-03-01")
        try cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com", "--group", "qa")
        try cli.ok("add-tester", "Bo Chen", "--email", "bo@example.com")
        try cli.ok("add-device", "bo@example.com", "00008110-0000000000000D04", "--model", "iPhone16,1")
        #expect(try cli.ok("requests").contains("No devices waiting for approval."))
        #expect(try cli.ok("approval-rule") == "Approval rule: off: every request waits for approval\n")

        let home = try Home.open(at: dir.child("home"))
        let roster = Roster(home: home)
        let enrollment = DeviceEnrollment(home: home, acceptsUnverified: true)
        let device = try await OpenSSLTool.makeDeviceIdentity(in: dir)
        func enrol(_ udid: String, _ tester: String) async throws -> EnrollmentResult.Outcome {
            let id = try roster.tester(matching: tester).id
            let challenge = try enrollment.issueChallenge(testerID: id, now: Date())
            let plist = OpenSSLTool.deviceReplyPlist(udid: udid, product: "iPhone15,2", deviceName: "Phone \(udid.suffix(2))", challenge: challenge)
            let reply = try await OpenSSLTool.signDER(plist, certificate: device.certificate, key: device.key, in: dir)
            return try enrollment.receive(reply, testerID: id, now: Date()).outcome
        }
        #expect(try await enrol("00008120-0000000000000E01", "ann@example.com") == .requested)
        #expect(try await enrol("00008120-0000000000000E02", "bo@example.com") == .requested)
        let listing = try cli.ok("requests")
        #expect(listing.contains("2 devices waiting."))
        #expect(listing.components(separatedBy: "\n").contains { $0.hasPrefix("00008120-0000000000000E01") && $0.contains("Ann Lee") && $0.contains("UNVERIFIED") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("requests", "--json").utf8)) as? [String: Any])
        let open = try #require(json["requests"] as? [[String: Any]])
        #expect(open.map { $0["udid"] as? String } == ["00008120-0000000000000E01", "00008120-0000000000000E02"])
        #expect(open.first?["verified"] as? Bool == false)
        #expect((json["rule"] as? [String: Any])?["mode"] as? String == "off")
        let usage = { () throws -> Int? in
            let devices = try JSONSerialization.jsonObject(with: Data(try cli.ok("devices", "--json").utf8)) as? [String: Any]
            return ((devices?["usage"] as? [String: Any])?["iphone"] as? [String: Any])?["used"] as? Int
        }
        #expect(try usage() == 1, "requests take no slot")

        let approved = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("approve-device", "00008120-0000000000000E01", "--json").utf8)) as? [String: Any])
        #expect((approved["device"] as? [String: Any])?["pending"] as? Bool == true)
        #expect(approved["reusedSlot"] as? Bool == false)
        #expect(try usage() == 2)
        let rejected = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("reject-device", "00008120-0000000000000E02", "--json").utf8)) as? [String: Any])
        #expect((rejected["rejected"] as? [String: Any])?["tester"] as? String == "Bo Chen")
        #expect(try usage() == 2, "rejecting frees nothing: the request took nothing")
        let again = try cli.run("reject-device", "00008120-0000000000000E02")
        #expect(again.status == 1)
        #expect(again.stderr.contains("no open request for device 00008120-0000000000000E02; list the open requests with `betactl requests`"))
        #expect(try cli.ok("export-devices", "--pending").contains("00008120-0000000000000E01\tPhone 01\tios"))

        #expect(try cli.ok("approval-rule", "set", "--group", "qa") == "Approval rule: group qa: requests from testers in group qa are approved as they arrive; others wait\n")
        #expect(try await enrol("00008120-0000000000000E03", "ann@example.com") == .registered)
        #expect(try await enrol("00008120-0000000000000E04", "bo@example.com") == .requested)
        let rule = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("approval-rule", "--json").utf8)) as? [String: Any])
        #expect(rule["mode"] as? String == "group" && rule["group"] as? String == "qa")
        let both = try cli.run("approval-rule", "set", "--all", "--off")
        #expect(both.status == 64)
        #expect(both.stderr.contains("approval-rule set needs exactly one of --group GROUP, --all or --off"))
        #expect(try cli.ok("approval-rule", "set", "--off").hasPrefix("Approval rule: off"))
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
        // The reply is self-signed, so it is taken in as `serve --allow-unverified-enrollment` takes it.
        let enrollment = DeviceEnrollment(home: home, acceptsUnverified: true)
        let challenge = try enrollment.issueChallenge(testerID: ann.id, now: Date())
        let device = try await OpenSSLTool.makeDeviceIdentity(in: dir)
        let reply = try await OpenSSLTool.signDER(OpenSSLTool.deviceReplyPlist(udid: inProfile, product: "iPhone15,2", deviceName: nil, challenge: challenge),
                                                  certificate: device.certificate, key: device.key, in: dir)
        #expect(try enrollment.receive(reply, testerID: ann.id, now: Date()).outcome == .requested)
        // A request is not pending yet: it takes no slot and is not exported until approved.
        #expect(try cli.ok("export-devices", "--pending") == "Device ID\tDevice Name\tDevice Platform\n")
        #expect(try cli.ok("requests").contains(inProfile))
        #expect(try cli.ok("approve-device", inProfile).hasPrefix("Approved iPhone \(inProfile) (Ann Lee iPhone 14 Pro) for Ann Lee."))

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
