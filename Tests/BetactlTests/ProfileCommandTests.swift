import Foundation
import Testing
import TestSupport

@Suite struct ProfileCommandTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/\(name)").path }

    struct ProfileJSON: Decodable {
        var uuid: String
        var name: String
        var type: String
        var devices: Int?
    }

    struct CheckJSON: Decodable {
        struct Missing: Decodable {
            var udid: String
            var tester: String?
        }
        var missingDevices: [Missing]
        var unknownDevices: [String]
        var ok: Bool
    }

    @Test func importsListsAndChecksProfilesAgainstTheRoster() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        #expect(try cli.ok("import-profile", Self.fixture("profiles/beta_adhoc.mobileprovision")).hasPrefix("Imported ad hoc profile \"Beta Ad Hoc\""))
        #expect(try cli.ok("import-profile", Self.fixture("profiles/beta_adhoc.mobileprovision")).hasPrefix("Updated ad hoc profile"))
        try cli.ok("import-profile", Self.fixture("profiles/beta_development.mobileprovision"))
        let list = try JSONDecoder().decode([ProfileJSON].self, from: Data(try cli.ok("profiles", "--json").utf8))
        #expect(Set(list.map(\.type)) == ["ad-hoc", "development"])
        try cli.ok("add-tester", "Ann", "--family", "iphone", "--device", "00008030-0000000000000A01")
        try cli.ok("add-tester", "Bob", "--family", "iphone", "--device", "00008110-0000000000000D04")
        let check = try JSONDecoder().decode(CheckJSON.self, from: Data(try cli.ok("check-profile", "Beta Ad Hoc", "--json").utf8))
        #expect(check.ok)
        #expect(check.missingDevices.map(\.udid) == ["00008110-0000000000000D04"])
        #expect(check.missingDevices.first?.tester == "Bob")
        #expect(check.unknownDevices.count == 2)
        let text = try cli.ok("check-profile", "0b6e7a1c-2f00-4c5e-9d1a-5e7a00000001")
        // Named devices are shown with their name and UDID.
        #expect(text.contains("warning: Bob cannot install builds signed with this profile: "))
        #expect(text.contains("(00008110-0000000000000D04) is not in it; regenerate the profile with every registered device"))
    }

    @Test func checkProfileFailsOnceExpiredAndImportRefusesDamagedFiles() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("import-profile", Self.fixture("profiles/beta_expired.mobileprovision"))
        let expired = try cli.run("check-profile", "Beta Ad Hoc (expired)")
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("error: the profile \"Beta Ad Hoc (expired)\" expired on 2020-01-01; regenerate it"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("profiles/beta_adhoc.mobileprovision")))
        try bytes.prefix(3000).write(to: URL(fileURLWithPath: dir.child("cut.mobileprovision")))
        let cut = try cli.run("import-profile", dir.child("cut.mobileprovision"))
        #expect(cut.status == 65)
        #expect(cut.stderr.contains("the profile is truncated (the file has only 3000 bytes)"))
        let unknown = try cli.run("check-profile", "nope")
        #expect(unknown.stderr.contains("no imported profile matches \"nope\"; known profiles: Beta Ad Hoc (expired)"))
    }

    @Test func writesAdHocEntitlementsAndChecksSignedOnes() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let out = dir.child("dist.plist")
        try cli.ok("entitlements", "--profile", Self.fixture("profiles/beta_adhoc.mobileprovision"), "--bundle-id", "com.example.beta", "--output", out)
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: out)), format: nil) as? [String: Any]
        #expect(plist?["application-identifier"] as? String == "ABCDE12345.com.example.beta")
        #expect(plist?["get-task-allow"] as? Bool == false)
        let wrong = try cli.run("entitlements", "--profile", Self.fixture("profiles/other_app_adhoc.mobileprovision"), "--bundle-id", "com.example.beta")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("does not cover the bundle id com.example.beta"))
        #expect(try cli.ok("check-entitlements", Self.fixture("app/Beta.ipa")).contains("Payload/Beta.app/Beta: 8 entitlements, all allowed by \"Beta Ad Hoc\""))
        let bad = try cli.run("check-entitlements", Self.fixture("app/BetaBadEntitlements.ipa"))
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("5 entitlement problems:"))
        #expect(bad.stderr.contains("entitlement \"keychain-access-groups\": the app was signed with [\"ZZZZZ99999.shared\"], but the profile \"Beta Ad Hoc\" allows only [\"ABCDE12345.*\", \"com.apple.token\"]"))
    }

    @Test func anAppWithoutAnEmbeddedProfileIsReportedOnceAndAGivenProfileReplacesIt() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        // Beta.ipa without the app's own embedded.mobileprovision.
        let stripped = dir.child("NoProfile.ipa")
        let python = try runToolNow("python3", ["-c", """
            import sys, zipfile
            source, target = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)
            for entry in source.infolist():
                if entry.filename != "Payload/Beta.app/embedded.mobileprovision":
                    target.writestr(entry, source.read(entry.filename))
            target.close()
            """, Self.fixture("app/Beta.ipa"), stripped])
        #expect(python.status == 0, "python3: \(python.error)")
        let result = try cli.run("check-entitlements", stripped)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Payload/Beta.app: has no embedded.mobileprovision"))
        #expect(!result.stderr.contains("Payload/Beta.app/Beta: no embedded.mobileprovision to check against"))
        let withProfile = try cli.run("check-entitlements", stripped, "--profile", Self.fixture("profiles/beta_adhoc.mobileprovision"))
        // The given profile stands in for the missing one (and, being the app's, does not fit the widget).
        #expect(!withProfile.stderr.contains("embedded.mobileprovision"))
        #expect(withProfile.stderr.contains("1 entitlement problem:"))
        #expect(withProfile.stdout.contains("Payload/Beta.app/Beta: 8 entitlements, all allowed by \"Beta Ad Hoc\""))
    }

    @Test(.enabled(if: SharedFixtures.available))
    func anAppWithoutItsExecutableIsAProblemNotASilentPass() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let result = try cli.run("check-entitlements", SharedFixtures.url("ipas/iOSAppOnly.ipa").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the executable \"Sample\" named by CFBundleExecutable is missing"))
        #expect(result.stderr.contains("has no embedded.mobileprovision"))
        let withProfile = try cli.run("check-entitlements", SharedFixtures.url("ipas/iOSAppOnly.ipa").path,
                                      "--profile", Self.fixture("profiles/beta_adhoc.mobileprovision"))
        #expect(withProfile.status == 1)
        #expect(!withProfile.stderr.contains("embedded.mobileprovision"))
        #expect(withProfile.stderr.contains("is missing"))
    }
}
