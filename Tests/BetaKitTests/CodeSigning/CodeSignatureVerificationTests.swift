import AppleFormats
@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// The verifier against Apple's own output (isign's Test.app, signed by Xcode) and one-byte changes to it.
@Suite("Code signature verification", .enabled(if: SharedFixtures.available))
struct CodeSignatureVerificationTests {
    static let testApp = SharedFixtures.url("signed/isign/Test.app").path

    /// A writable copy of Test.app in a temporary directory.
    func copyOfTestApp(_ directory: TemporaryDirectory) throws -> String {
        let target = directory.child("Test.app")
        try FileManager.default.copyItem(atPath: Self.testApp, toPath: target)
        try makeWritable(target)
        return target
    }

    func makeWritable(_ path: String) throws {
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        for relative in try manager.subpathsOfDirectory(atPath: path) {
            let full = path + "/" + relative
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: full, isDirectory: &isDirectory)
            try manager.setAttributes([.posixPermissions: isDirectory.boolValue ? 0o755 : 0o644], ofItemAtPath: full)
        }
    }

    func check(_ path: String, _ directory: TemporaryDirectory) throws -> BundleSignatureReport {
        try CodeSignatureChecker(workDirectory: directory.path).check(path: path)
    }

    func flipByte(_ path: String, at offset: Int) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[offset] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Where the LC_CODE_SIGNATURE blob of the first slice of `path` sits in the file, and the slice's offset.
    func signatureLocation(_ path: String) throws -> (slice: Int, signature: Int, signatureSize: Int, blobs: [CodeSignature.Blob]) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try bytes.withUnsafeBytes { raw in
            let file = try MachOFile(bytes: raw)
            let slice = file.slices[0]
            let sliceBytes = MachOFile.bytes(of: slice, in: raw)
            let image = try MachOImage(bytes: sliceBytes)
            let command = try #require(image.codeSignature)
            let signature = try CodeSignature(bytes: try #require(image.codeSignatureBytes(in: sliceBytes)))
            return (slice.offset, Int(command.offset), Int(command.size), signature.blobs)
        }
    }

    @Test("Every Mach-O of Apple-signed Test.app verifies, and the bundle is refused for exactly its two missing sealed files")
    func appleSignedBundle() throws {
        let directory = try TemporaryDirectory()
        let report = try check(Self.testApp, directory)
        let executables = report.executables.map { $0.path }
        #expect(executables.contains("Test.app/isignTestApp"))
        #expect(executables.contains("Test.app/Frameworks/libswiftUIKit.dylib"))
        #expect(report.executables.count == 9)
        // Every Mach-O carries a CMS signature by Apple's iPhone Developer certificate.
        for executable in report.executables {
            #expect(executable.slices.count >= 2, "\(executable.path)")
            for slice in executable.slices {
                #expect(slice.signer?.subject.commonName?.hasPrefix("iPhone") == true, "\(executable.path)")
            }
        }
        #expect(report.problems.map(\.path).sorted() == ["Test.app/Frameworks/libswiftCore.dylib", "Test.app/embedded.mobileprovision"])
        #expect(report.problems.allSatisfy { $0.cause == .resourceMissing })
        #expect(report.problems.first?.description == "Test.app/Frameworks/libswiftCore.dylib is missing, but the bundle's signature seals it: re-export the build from Xcode")
    }

    @Test("The main executable's slices report Apple's structure: version, SHA-1 CodeDirectory, bound special slots")
    func structure() throws {
        let directory = try TemporaryDirectory()
        let report = try check(Self.testApp, directory)
        let main = try #require(report.executables.first { $0.path == "Test.app/isignTestApp" })
        #expect(main.slices.map(\.architecture) == ["armv7", "arm64"])
        let primary = try #require(main.slices.first?.directories.first)
        #expect(primary.version == 0x20200)
        #expect(primary.hashType == .sha1)
        #expect(primary.pageSize == 4096)
        #expect(primary.boundSlots == [.infoPlist, .requirements, .resourceDirectory, .entitlements])
        #expect(main.slices.first?.hasEntitlements == true)
        #expect(main.slices.first?.identifier == "com.saucelabs.isignTestApp")
    }

    @Test("A byte changed in a code page is refused naming the binary and the page")
    func codePageChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        let location = try signatureLocation(app + "/isignTestApp")
        try flipByte(app + "/isignTestApp", at: location.slice + 5000)
        let problems = try check(app, directory).problems.filter { $0.path == "Test.app/isignTestApp" }
        #expect(problems.map(\.cause) == [.codePageChanged(architecture: "armv7", page: 1)])
        #expect(problems.first?.description.hasPrefix("Test.app/isignTestApp changed after signing (the armv7 code page 1 no longer matches its hash)") == true)
    }

    @Test("A changed Info.plist is refused naming the file, as iOS would")
    func infoPlistChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        let url = URL(fileURLWithPath: app + "/Info.plist")
        var plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        plist["CFBundleShortVersionString"] = "9.9"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: url)
        let problems = try check(app, directory).problems.filter { $0.path == "Test.app/Info.plist" }
        #expect(problems.map(\.description) == ["Test.app/Info.plist changed after signing (the signature of Test.app/isignTestApp seals it): re-export the build from Xcode"])
    }

    @Test("A changed sealed resource, an added file and a changed dylib are each refused by name")
    func resourcesChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        try flipByte(app + "/Assets.car", at: 100)
        try Data("new".utf8).write(to: URL(fileURLWithPath: app + "/Extra.txt"))
        let dylib = try signatureLocation(app + "/Frameworks/libswiftDarwin.dylib")
        try flipByte(app + "/Frameworks/libswiftDarwin.dylib", at: dylib.slice + 4 * 4096 + 10)
        let problems = try check(app, directory).problems
        #expect(problems.contains(CodeSignatureProblem(path: "Test.app/Assets.car", cause: .resourceChanged)))
        #expect(problems.contains(CodeSignatureProblem(path: "Test.app/Extra.txt", cause: .resourceAdded)))
        #expect(problems.contains(CodeSignatureProblem(path: "Test.app/Frameworks/libswiftDarwin.dylib", cause: .resourceChanged)))
        #expect(problems.contains(CodeSignatureProblem(path: "Test.app/Frameworks/libswiftDarwin.dylib", cause: .codePageChanged(architecture: "armv7", page: 4))))
    }

    @Test("A byte changed in the CodeDirectory is refused by the CMS signature")
    func codeDirectoryChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        let location = try signatureLocation(app + "/isignTestApp")
        let codeDirectory = try #require(location.blobs.first { $0.slot == 0 })
        // The low byte of the flags: no hash covers it, only the CMS signature.
        try flipByte(app + "/isignTestApp", at: location.slice + location.signature + codeDirectory.offset + 15)
        let problems = try check(app, directory).problems.filter { $0.path == "Test.app/isignTestApp" }
        #expect(problems.count == 1)
        guard case .signatureInvalid = problems.first?.cause else {
            Issue.record("expected a CMS refusal, got \(problems)")
            return
        }
        #expect(problems.first?.description.contains("the CodeDirectory or the signature changed after signing") == true)
    }

    @Test("A byte changed in the CMS blob is refused")
    func cmsChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        let location = try signatureLocation(app + "/isignTestApp")
        let cms = try #require(location.blobs.first { $0.slot == 0x10000 })
        // Inside the signature value, near the end of the blob.
        try flipByte(app + "/isignTestApp", at: location.slice + location.signature + cms.offset + cms.length - 20)
        let problems = try check(app, directory).problems.filter { $0.path == "Test.app/isignTestApp" }
        #expect(problems.count == 1)
        guard case .signatureInvalid = problems.first?.cause else {
            Issue.record("expected a CMS refusal, got \(problems)")
            return
        }
    }

    @Test("Changed entitlements are refused through their special slot")
    func entitlementsChanged() throws {
        let directory = try TemporaryDirectory()
        let app = try copyOfTestApp(directory)
        let location = try signatureLocation(app + "/isignTestApp")
        let entitlements = try #require(location.blobs.first { $0.slot == 5 })
        try flipByte(app + "/isignTestApp", at: location.slice + location.signature + entitlements.offset + 60)
        let problems = try check(app, directory).problems.filter { $0.path == "Test.app/isignTestApp" }
        #expect(problems.map(\.cause) == [.sealedByExecutableChanged(binary: "Test.app/isignTestApp", what: "XML entitlements")])
    }

    @Test("A lone Mach-O is checked on its own: fastlane's thin arm64 executable with a SHA-256 alternate CodeDirectory")
    func loneMachO() throws {
        let directory = try TemporaryDirectory()
        let report = try check(SharedFixtures.url("macho/macho_fastlane_very-capable-app.bin").path, directory)
        let slice = try #require(report.executables.first?.slices.first)
        #expect(slice.directories.map(\.hashType) == [.sha1, .sha256])
        #expect(slice.directories.map(\.slot) == [0, 0x1000])
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("A byte changed in the SHA-256 alternate CodeDirectory is refused: the CMS signature's CDHashes no longer list it")
    func alternateDirectoryChanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.child("app.bin")
        try FileManager.default.copyItem(atPath: SharedFixtures.url("macho/macho_fastlane_very-capable-app.bin").path, toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let location = try signatureLocation(path)
        let alternate = try #require(location.blobs.first { $0.slot == 0x1000 })
        try flipByte(path, at: location.signature + alternate.offset + 15)
        let report = try check(path, directory)
        #expect(report.problems == [CodeSignatureProblem(path: "app.bin", cause: .alternateDirectoryUnsigned(slot: 0x1000))])
    }

    @Test("An unsigned build is refused as unsigned")
    func unsigned() throws {
        let directory = try TemporaryDirectory()
        let report = try check(SharedFixtures.url("signed/isign/Test_unsigned_thin.app").path, directory)
        #expect(report.problems.contains(CodeSignatureProblem(path: "Test_unsigned_thin.app/isignTestApp", cause: .unsigned)))
    }
}
