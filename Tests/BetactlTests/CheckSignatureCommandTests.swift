import Foundation
import Testing
import TestSupport

/// `betactl check-signature`: needs no home, exits 0 or 1, names each file that breaks the signature.
@Suite("check-signature", .enabled(if: SharedFixtures.available))
struct CheckSignatureCommandTests {
    struct ReportJSON: Decodable {
        struct Problem: Decodable { var path: String; var message: String }
        struct Executable: Decodable {
            struct Slice: Decodable {
                struct Directory: Decodable { var slot: UInt32; var hashType: String; var version: String; var specialSlots: [String] }
                var architecture: String
                var signer: String?
                var codeDirectories: [Directory]
            }
            var path: String
            var slices: [Slice]
        }
        var valid: Bool
        var problems: [Problem]
        var executables: [Executable]
    }

    @Test("Apple-signed Test.app is refused with exit 1 naming exactly its two missing sealed files, without a home")
    func refusesTestApp() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("no-home"))
        let result = try cli.run("check-signature", SharedFixtures.url("signed/isign/Test.app").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Test.app/Frameworks/libswiftCore.dylib is missing, but the bundle's signature seals it: re-export the build from Xcode"))
        #expect(result.stderr.contains("Test.app/embedded.mobileprovision is missing"))
        #expect(result.stderr.contains("2 signature problems"))
        #expect(result.stdout.contains("signed by \"iPhone Developer: Neil Kandalgaonkar (PJ5C3PEW8Z)\""))
        #expect(!FileManager.default.fileExists(atPath: dir.child("no-home")))
    }

    @Test("--json lists every executable, its CodeDirectories and the problems")
    func json() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        let result = try cli.run("check-signature", SharedFixtures.url("signed/isign/Test.app").path, "--json")
        #expect(result.status == 1)
        let report = try JSONDecoder().decode(ReportJSON.self, from: Data(result.stdout.utf8))
        #expect(!report.valid)
        #expect(report.problems.map(\.path).sorted() == ["Test.app/Frameworks/libswiftCore.dylib", "Test.app/embedded.mobileprovision"])
        let main = try #require(report.executables.first { $0.path == "Test.app/isignTestApp" })
        #expect(main.slices.map(\.architecture) == ["armv7", "arm64"])
        #expect(main.slices.first?.codeDirectories.first?.specialSlots == ["Info.plist", "requirements", "_CodeSignature/CodeResources", "XML entitlements"])
        #expect(main.slices.first?.codeDirectories.first?.version == "0x20200")
    }

    @Test("A valid lone Mach-O exits 0; an unsigned one and a missing path exit 1")
    func exitStatuses() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        let valid = try cli.run("check-signature", SharedFixtures.url("macho/macho_fastlane_very-capable-app.bin").path)
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("CodeDirectory 0x20400 SHA-256"))
        let unsigned = try cli.run("check-signature", SharedFixtures.url("signed/isign/Test_unsigned_thin.app").path)
        #expect(unsigned.status == 1)
        #expect(unsigned.stderr.contains("Test_unsigned_thin.app/isignTestApp is not code signed"))
        let missing = try cli.run("check-signature", dir.child("nothing.ipa"))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothing.ipa"))
    }

    @Test("inspect shows the signature's structure: CodeDirectories, blobs, signer, and whether it verifies")
    func inspectShowsTheSignature() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        let text = try cli.ok("inspect", SharedFixtures.url("signed/isign/Test.app/Frameworks/libswiftUIKit.dylib").path)
        #expect(text.contains("Signature:"))
        #expect(text.contains("valid (page hashes, sealed files and blobs, CMS signature)"))
        #expect(text.contains("SHA-1 0x20200 cdhash"))
        #expect(text.contains("CN=iPhone Developer: Neil Kandalgaonkar (PJ5C3PEW8Z)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("inspect", "--json", LocalFixtures.url("formats/app/Beta.ipa").path).utf8)) as? [String: Any])
        let signature = try #require(json["signature"] as? [String: Any])
        #expect(signature["valid"] as? Bool == true)
        #expect((signature["executables"] as? [[String: Any]])?.count == 2)
    }
}
