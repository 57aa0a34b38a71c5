@testable import BetaKit
import AppleFormats
import CryptoCMS
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

    /// A signer with the identity and profile `ResigningFixtures.make` wrote into `credentials`.
    static func signer(_ credentials: TemporaryDirectory) throws -> BundleSigner {
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("new.mobileprovision"))))
        let identity = try CMSSigningIdentity(certificates: [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("cert.pem")))),
                                              privateKey: [UInt8](Data(contentsOf: URL(fileURLWithPath: credentials.child("key.pem")))))
        return BundleSigner(cms: try LibcryptoCodeSigner(identity: identity), profile: try ProvisioningProfile(bytes: profile), profileBytes: profile)
    }

    /// The path of release `id`'s package in the home's blobs.
    static func packagePath(_ cli: Betactl, release id: Int) throws -> String {
        let shown = try cli.ok("show-release", String(id))
        let sha = try #require(shown.split(separator: "\n").first { $0.contains("sha256") }?.split(separator: " ").last)
        return cli.home + "/blobs/" + sha.prefix(2) + "/" + sha
    }

    @Test("A build holding symbolic links keeps them through release and resign: both are accepted, and check-signature and the independent checker accept the re-signed package",
          .enabled(if: SyntheticApp.available && PythonOracles.isInstalled))
    func resignsABuildWithLinks() throws {
        let dir = try TemporaryDirectory()
        // The developer's build: the synthetic app signed by one identity, zipped with its links (zip -y).
        let developer = try TemporaryDirectory("developer")
        try ResigningFixtures.make(in: developer, role: "developer")
        try FileManager.default.createDirectory(atPath: dir.child("build/Payload"), withIntermediateDirectories: true)
        let app = try SyntheticApp.build(dir, in: dir.child("build/Payload"))
        try Self.signer(developer).sign(appAt: app, name: "Payload/App.app")
        let zipped = try runToolNow("zip", ["-qry", dir.child("App.ipa"), "Payload"], directory: dir.child("build"))
        #expect(zipped.status == 0, "\(zipped.error)")

        try ResigningFixtures.make(in: dir)
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("release", dir.child("App.ipa"), "--allow-missing-symbols")
        try cli.ok("code-identity", "import", dir.child("cert.pem"), dir.child("key.pem"))
        let output = try cli.ok("resign", "1", "--profile", dir.child("new.mobileprovision"))
        #expect(output.contains("Published release 2: release 1 re-signed"), "\(output)")

        let package = try Self.packagePath(cli, release: 2)
        let checked = try cli.run("check-signature", package)
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        let archive = try ZipArchive(source: try FileByteSource(path: package))
        for (path, target) in SyntheticApp.links {
            let entry = try #require(archive.entry(named: "Payload/App.app/" + path), "\(path)")
            #expect(entry.isSymbolicLink, "\(path)")
            #expect(String(decoding: try archive.contents(of: entry), as: UTF8.self) == target)
        }
        // Only executables, CodeResources and profiles were written anew; every other entry was
        // copied as the original package stores it, still compressed.
        let originalArchive = try ZipArchive(source: try FileByteSource(path: try Self.packagePath(cli, release: 1)))
        let rewritten: Set<String> = ["App", "Frameworks/Kit.framework/Kit", "Frameworks/libExtra.dylib", "PlugIns/Ext.appex/Ext", "Watch/Watch.app/Watch"]
        for entry in originalArchive.entries where !entry.isDirectory {
            let relative = String(entry.name.dropFirst("Payload/App.app/".count))
            let copy = try #require(archive.entry(named: entry.name), "\(entry.name)")
            var before: [UInt8] = [], after: [UInt8] = []
            try originalArchive.rawData(of: entry) { before.append(contentsOf: $0) }
            try archive.rawData(of: copy) { after.append(contentsOf: $0) }
            if rewritten.contains(relative) {
                #expect(after != before, "\(entry.name) was signed again")
            } else if !relative.hasSuffix("_CodeSignature/CodeResources") && !relative.hasSuffix("embedded.mobileprovision") {
                #expect(after == before && copy.crc32 == entry.crc32 && copy.unixMode == entry.unixMode, "\(entry.name) was copied as stored")
            }
        }
        let unzip = try runToolNow("unzip", ["-q", package, "-d", dir.child("resigned")])
        #expect(unzip.status == 0, "\(unzip.error)")
        let resigned = dir.child("resigned/Payload/App.app")
        for (path, target) in SyntheticApp.links {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: resigned + "/" + path) == target)
        }
        let script = Repository.root.appendingPathComponent("Tests/Clients/check_code_signature.py").path
        for bundle in ["", "/Frameworks/Kit.framework", "/PlugIns/Ext.appex", "/Watch/Watch.app"] {
            let executable = resigned + bundle + "/" + (bundle.isEmpty ? "App" : String(bundle.split(separator: "/").last?.split(separator: ".").first ?? ""))
            let result = try runToolNow(PythonOracles.python, [script, executable, resigned + bundle + "/Info.plist",
                                                               resigned + bundle + "/_CodeSignature/CodeResources"])
            #expect(result.status == 0, "\(executable): \(result.text) \(result.error)")
        }
        let dylib = try runToolNow(PythonOracles.python, [script, resigned + "/Frameworks/libExtra.dylib"])
        #expect(dylib.status == 0, "\(dylib.text) \(dylib.error)")
    }

    /// A crash report of the Beta app's arm64 slice `uuid` (lowercase hex, no dashes) with frames in
    /// `beta_entry` (where `scale` is inlined) and `main`.
    static func betaCrash(uuid: String) -> String {
        """
        Incident Identifier: 7D0E5A1B-2C3D-4E5F-8A9B-0C1D2E3F4A5B
        CrashReporter Key:   0123456789abcdef0123456789abcdef01234567
        Hardware Model:      iPhone14,5
        Process:             Beta [4242]
        Path:                /private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/Beta.app/Beta
        Identifier:          com.example.beta
        Version:             1.0 (1)
        Code Type:           ARM-64 (Native)
        Role:                Foreground
        Parent Process:      launchd [1]

        Date/Time:           2024-05-06 10:11:12.1314 +0200
        Launch Time:         2024-05-06 10:11:02.0000 +0200
        OS Version:          iPhone OS 17.4.1 (21E236)
        Release Type:        User
        Report Version:      104

        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000000
        Termination Reason: SIGNAL 11 Segmentation fault: 11

        Triggered by Thread:  0

        Thread 0 Crashed:
        0   Beta                                \t0x0000000104a2c000 0x104a28000 + 16384
        1   Beta                                \t0x0000000104a2c010 0x104a28000 + 16400

        Binary Images:
               0x104a28000 -        0x104a2ffff Beta arm64  <\(uuid)> /private/var/containers/Bundle/Application/0C1A7D2E-9B3F-4E5A-8C6D-7F8E9A0B1C2D/Beta.app/Beta

        """
    }

    /// `llvm-dwarfdump --uuid` of `path`: "UUID (arch)" per slice, without the path.
    static func dwarfdumpUUIDs(_ path: String) throws -> [String] {
        let result = try runToolNow("llvm-dwarfdump", ["--uuid", path])
        #expect(result.status == 0, "\(result.error)")
        return result.text.split(separator: "\n").map { line in line.split(separator: " ").prefix(3).joined(separator: " ") }
    }

    @Test("The original dSYMs symbolicate a crash of the re-signed release exactly as one of the original, and every slice keeps its UUID",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/llvm-dwarfdump")))
    func originalSymbolsServeTheResignedRelease() throws {
        let dir = try TemporaryDirectory()
        try ResigningFixtures.make(in: dir)
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("release", Self.fixture("Beta.ipa"), "--dsym", Self.fixture("Beta.app.dSYM.zip"), "--dsym", Self.fixture("BetaWidget.appex.dSYM.zip"))
        try cli.ok("code-identity", "import", dir.child("cert.pem"), dir.child("key.pem"))
        try cli.ok("resign", "1", "--profile", dir.child("new.mobileprovision"))

        for (release, folder) in [(1, "original"), (2, "resigned")] {
            let unzip = try runToolNow("unzip", ["-q", try Self.packagePath(cli, release: release), "-d", dir.child(folder)])
            #expect(unzip.status == 0, "\(unzip.error)")
        }
        for executable in ["Beta", "PlugIns/BetaWidget.appex/BetaWidget"] {
            let original = try Self.dwarfdumpUUIDs(dir.child("original/Payload/Beta.app/" + executable))
            let resigned = try Self.dwarfdumpUUIDs(dir.child("resigned/Payload/Beta.app/" + executable))
            #expect(!original.isEmpty && resigned == original, "\(executable): \(resigned) vs \(original)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.child("resigned/Payload/Beta.app/" + executable)))
                != Data(contentsOf: URL(fileURLWithPath: dir.child("original/Payload/Beta.app/" + executable))), "\(executable) was signed again")
        }
        #expect(try Self.dwarfdumpUUIDs(dir.child("resigned/Payload/Beta.app/Beta")) == ["UUID: 4C4C44A8-5555-3144-A1C8-1A6BD73D7603 (arm64)",
                                                                                        "UUID: 4C4C44AD-5555-3144-A124-A8077B0075C5 (arm64e)"])

        // The crash names the re-signed binary's UUID (as read from it); the home holds only the original's dSYMs.
        let uuid = try #require(try Self.dwarfdumpUUIDs(dir.child("resigned/Payload/Beta.app/Beta")).first?.split(separator: " ").dropFirst().first)
        let report = dir.child("Beta-crash.crash")
        try Self.betaCrash(uuid: uuid.replacingOccurrences(of: "-", with: "").lowercased()).write(toFile: report, atomically: true, encoding: .utf8)
        let frames = { (text: String) in text.split(separator: "\n").filter { $0.contains("(in Beta)") }.map { $0.split(separator: "\t").last.map(String.init) ?? "" } }
        let resigned = frames(try cli.ok("symbolicate", report))
        #expect(resigned.contains { $0.contains("scale (in Beta) (beta_app.c:2)") }, "\(resigned)")
        #expect(resigned.contains { $0.contains("beta_entry (in Beta) (beta_app.c:3)") }, "\(resigned)")
        #expect(resigned.contains { $0.contains("main (in Beta) (beta_app.c:4)") }, "\(resigned)")
        // The original's symbols given directly, in a home that never saw the re-signed release.
        let dsym = try runToolNow("unzip", ["-q", Self.fixture("Beta.app.dSYM.zip"), "-d", dir.child("dsym")])
        #expect(dsym.status == 0, "\(dsym.error)")
        let fresh = Betactl(home: dir.child("fresh"))
        try fresh.ok("init")
        #expect(frames(try fresh.ok("symbolicate", report, "--dsym", dir.child("dsym/Beta.app.dSYM"))) == resigned)

        // Added as a crash of the release, it is symbolicated with the archived symbols too.
        let added = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok("add-crash", report, "--json").utf8)) as? [[String: Any]])
        let id = try #require(added.first?["id"] as? Int)
        #expect(added.first?["status"] as? String == "symbolicated", "\(added)")
        let shown = try cli.ok("show-crash", String(id))
        #expect(shown.contains("beta_entry (in Beta) (beta_app.c:3)"), "\(shown)")
    }
}
