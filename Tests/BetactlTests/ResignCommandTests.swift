import Foundation
import Testing
import TestSupport

/// `betactl code-identity` and `betactl resign`: a released build signed again with a new profile
/// and published as a new release linked to the original, with its notes, groups and dSYMs.
@Suite("resign", .enabled(if: OpenSSLTool.available))
struct ResignCommandTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }

    @Test("A released build is re-signed with a new profile: a new release names the original, keeps notes, groups and symbols, and verifies")
    func resignsARelease() throws {
        let dir = try TemporaryDirectory()
        try ResigningFixtures.make(in: dir)
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("add-tester", "Ann", "--group", "qa")
        try cli.ok("release", Self.fixture("Beta.ipa"), "--dsym", Self.fixture("Beta.app.dSYM.zip"), "--dsym", Self.fixture("BetaWidget.appex.dSYM.zip"),
                   "--notes", "First build", "--group", "qa")

        let noIdentity = try cli.run("resign", "1", "--profile", dir.child("new.mobileprovision"))
        #expect(noIdentity.status == 1)
        #expect(noIdentity.stderr.contains("no code-signing identity is stored"))

        let imported = try cli.ok("code-identity", "import", dir.child("cert.pem"), dir.child("key.pem"))
        #expect(imported.contains("Imported code-signing identity “iPhone Distribution: Resigner (ABCDE12345)”"))
        try cli.ok("import-profile", dir.child("new.mobileprovision"))
        #expect(try cli.ok("code-identity", "show").contains("Resigned Ad Hoc (\(ResigningFixtures.profileUUID), ad-hoc"))

        let output = try cli.ok("resign", "1", "--profile", ResigningFixtures.profileName)
        #expect(output.contains("Published release 2: release 1 re-signed with \"Resigned Ad Hoc\""))
        let shown = try cli.ok("show-release", "2")
        #expect(shown.contains("re-signed     from release 1"))
        #expect(shown.contains("notes         First build"))
        #expect(shown.contains("groups        qa"))
        #expect(!shown.contains("MISSING"), "the original's dSYMs match the re-signed executables")
        #expect(shown.contains("profile       Resigned Ad Hoc"))
        let shownJSON = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok("show-release", "2", "--json").utf8)) as? [String: Any])
        #expect(shownJSON["resignedFrom"] as? Int == 1)
        let original = try cli.ok("show-release", "1")
        #expect(original.contains("profile       Beta Ad Hoc"))
        #expect(!original.contains("re-signed"))

        // The published package verifies on its own, signed by the new certificate.
        let sha = try #require(shown.split(separator: "\n").first { $0.contains("sha256") }?.split(separator: " ").last)
        let blob = cli.home + "/blobs/" + sha.prefix(2) + "/" + sha
        let checked = try cli.run("check-signature", String(blob))
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("signed by \"iPhone Distribution: Resigner (ABCDE12345)\""))
    }

    @Test("A profile without an entitlement the build uses is refused by name, and nothing is published")
    func refusesMissingEntitlement() throws {
        let dir = try TemporaryDirectory()
        try ResigningFixtures.make(in: dir, edit: "del profile[\"Entitlements\"][\"aps-environment\"]")
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("release", Self.fixture("Beta.ipa"), "--dsym", Self.fixture("Beta.app.dSYM.zip"), "--dsym", Self.fixture("BetaWidget.appex.dSYM.zip"))
        try cli.ok("code-identity", "import", dir.child("cert.pem"), dir.child("key.pem"))
        let refused = try cli.run("resign", "1", "--profile", dir.child("new.mobileprovision"))
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Payload/Beta.app cannot be re-signed with \"Resigned Ad Hoc\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("aps-environment"))
        #expect(!(try cli.ok("releases")).contains("\n2 "))
    }
}
