import AppleFormats
@testable import BetaKit
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// The signer checked against Apple's own output: Test.app's executable re-signed with its own
/// entitlements by a self-made certificate with the subject of Apple's, then compared blob by blob
/// and verified by the verifier, by `openssl cms -verify` and by its UUIDs.
@Suite("Mach-O signer", .enabled(if: SharedFixtures.available && OpenSSLTool.available))
struct MachOSignerTests {
    static let app = SharedFixtures.url("signed/isign/Test.app").path
    static let subject = "/UID=UYUJX9M2GB/CN=iPhone Developer: Neil Kandalgaonkar (PJ5C3PEW8Z)/OU=L37S4Z6BE9/O=Neil Kandalgaonkar/C=US"

    /// A self-made certificate and key with the subject of the certificate Apple issued for Test.app.
    static func identity(_ directory: TemporaryDirectory) throws -> CMSSigningIdentity {
        try TestKeys.rsa("macho-signer", copiedTo: directory.child("key.pem"))
        let made = try runToolNow("openssl", ["req", "-x509", "-key", directory.child("key.pem"), "-days", "30", "-subj", subject,
                                              "-out", directory.child("cert.pem")])
        #expect(made.status == 0, "\(made.error)")
        return try CMSSigningIdentity(certificates: [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.child("cert.pem")))),
                                      privateKey: [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.child("key.pem")))))
    }

    /// Each slice's signature: its CodeDirectories by slot and its blobs, as stored.
    static func signatures(_ file: [UInt8]) throws -> [CodeSignature] {
        try file.withUnsafeBytes { raw in
            let header = try MachOFile(bytes: raw)
            return try header.slices.map { slice in
                let bytes = MachOFile.bytes(of: slice, in: raw)
                let image = try MachOImage(bytes: bytes)
                return try CodeSignature(bytes: try #require(image.codeSignatureBytes(in: bytes)))
            }
        }
    }

    static func read(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Test.app's executable re-signed as Xcode would, with the bundle's own Info.plist and CodeResources.
    static func resign(_ directory: TemporaryDirectory) throws -> (original: [UInt8], signed: [UInt8], identity: CMSSigningIdentity) {
        let original = try read(app + "/isignTestApp")
        let first = try #require(try signatures(original).first)
        let entitlements = try #require(try first.parsedXMLEntitlements())
        let identity = try identity(directory)
        let signer = MachOSigner(cms: try LibcryptoCodeSigner(identity: identity))
        let parameters = MachOSigner.Parameters(identifier: try #require(first.identifier), teamIdentifier: first.teamIdentifier,
                                                entitlementsXML: first.xmlEntitlements, entitlementsDER: EntitlementsDER.encode(entitlements),
                                                infoPlist: try read(app + "/Info.plist"), codeResources: try read(app + "/_CodeSignature/CodeResources"))
        let signed = try signer.sign(original, path: "Test.app/isignTestApp", parameters: parameters)
        return (original, signed, identity)
    }

    @Test("Every page hash equals Apple's, and the requirements and entitlements blobs are Apple's byte for byte")
    func matchesApple() throws {
        let directory = try TemporaryDirectory()
        let (original, signed, _) = try Self.resign(directory)
        let before = try Self.signatures(original), after = try Self.signatures(signed)
        #expect(before.count == 2 && after.count == 2)
        for (old, new) in zip(before, after) {
            let oldDirectory = try CodeDirectory(bytes: try #require(old.blob(slot: 0)))
            let newDirectory = try CodeDirectory(bytes: try #require(new.blob(slot: 0)))
            #expect(newDirectory.hashType == .sha1, "a minimum OS before iOS 11 needs a SHA-1 CodeDirectory first")
            #expect(newDirectory.codeSlotCount == oldDirectory.codeSlotCount)
            for page in 0 ..< oldDirectory.codeSlotCount {
                #expect(newDirectory.codeSlotHash(page).elementsEqual(oldDirectory.codeSlotHash(page)), "page \(page)")
            }
            for slot in [CodeDirectory.SpecialSlot.infoPlist, .requirements, .resourceDirectory, .entitlements] {
                #expect(newDirectory.specialSlotHash(slot) == oldDirectory.specialSlotHash(slot), "\(slot)")
            }
            #expect(new.blob(slot: 2) == old.blob(slot: 2), "the designated requirement, byte for byte")
            #expect(new.blob(slot: 5) == old.blob(slot: 5), "the XML entitlements, byte for byte")
            #expect(new.blob(slot: 7) != nil, "DER entitlements, which iOS 15 requires")
            let alternate = try CodeDirectory(bytes: try #require(new.blob(slot: 0x1000)))
            #expect(alternate.hashType == .sha256)
            #expect(newDirectory.identifier == "com.saucelabs.isignTestApp" && newDirectory.teamIdentifier == "L37S4Z6BE9")
        }
        // Nothing but the signatures changed: same size, same code.
        #expect(signed.count == original.count)
    }

    @Test("The verifier accepts the re-signed executable inside Test.app, and openssl verifies its CMS blob")
    func verifies() throws {
        let directory = try TemporaryDirectory()
        let (_, signed, identity) = try Self.resign(directory)
        try FileManager.default.copyItem(atPath: Self.app, toPath: directory.child("Test.app"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.child("Test.app"))
        try FileManager.default.removeItem(atPath: directory.child("Test.app/isignTestApp"))
        try Data(signed).write(to: URL(fileURLWithPath: directory.child("Test.app/isignTestApp")))
        let report = try CodeSignatureChecker(workDirectory: directory.path).check(path: directory.child("Test.app"))
        #expect(report.problems.map(\.path).sorted() == ["Test.app/Frameworks/libswiftCore.dylib", "Test.app/embedded.mobileprovision"])
        let main = try #require(report.executables.first { $0.path == "Test.app/isignTestApp" })
        #expect(main.slices.allSatisfy { $0.signer.map { Array($0.sha256Fingerprint.bytes) } == Array(SHA256.hash(identity.certificateDER).bytes) })
        #expect(main.slices.allSatisfy { $0.directories.map(\.slot) == [0, 0x1000] })

        // openssl, on its own, checks the CMS blob over the primary CodeDirectory.
        let signature = try #require(try Self.signatures(signed).first)
        let cms = try #require(signature.blob(slot: 0x10000))
        try Data(cms.dropFirst(8)).write(to: URL(fileURLWithPath: directory.child("sig.der")))
        try Data(try #require(signature.blob(slot: 0))).write(to: URL(fileURLWithPath: directory.child("cd.bin")))
        let verified = try runToolNow("openssl", ["cms", "-verify", "-binary", "-inform", "DER", "-in", directory.child("sig.der"),
                                                  "-content", directory.child("cd.bin"), "-CAfile", directory.child("cert.pem"),
                                                  "-purpose", "any", "-out", "/dev/null"])
        #expect(verified.status == 0, "\(verified.error)")
        // The CDHashes attribute lists both CodeDirectories.
        let listed = try #require(CodeSignatureCMSAttributes.cdHashes(in: Array(cms.dropFirst(8))))
        #expect(listed.count == 2)
    }

    @Test("The UUIDs of every slice are unchanged (llvm-dwarfdump --uuid)")
    func uuidsUnchanged() throws {
        let directory = try TemporaryDirectory()
        let (_, signed, _) = try Self.resign(directory)
        try Data(signed).write(to: URL(fileURLWithPath: directory.child("signed")))
        let before = try runToolNow("llvm-dwarfdump-19", ["--uuid", Self.app + "/isignTestApp"])
        let after = try runToolNow("llvm-dwarfdump-19", ["--uuid", directory.child("signed")])
        func uuids(_ text: String) -> [Substring] { text.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first } }
        #expect(uuids(before.text).count == 2)
        #expect(uuids(before.text) == uuids(after.text))
    }

    @Test("A signature that needs more room than the old one grows LC_CODE_SIGNATURE and __LINKEDIT, and still verifies")
    func grows() throws {
        let directory = try TemporaryDirectory()
        let original = try Self.read(Self.app + "/Frameworks/libswiftDarwin.dylib")
        let identity = try Self.identity(directory)
        let signer = MachOSigner(cms: try LibcryptoCodeSigner(identity: identity))
        // Large entitlements force a bigger signature than the 9696 bytes Apple reserved.
        let entitlements: [String: PlistValue] = ["com.example.padding": .string(String(repeating: "x", count: 20_000))]
        let xml = try #require(try? PropertyListSerialization.data(fromPropertyList: ["com.example.padding": String(repeating: "x", count: 20_000)], format: .xml, options: 0))
        let signed = try signer.sign(original, path: "libswiftDarwin.dylib", parameters: .init(
            identifier: "com.apple.dt.runtime.swiftDarwin", teamIdentifier: "L37S4Z6BE9",
            entitlementsXML: [UInt8](xml), entitlementsDER: EntitlementsDER.encode(entitlements)))
        #expect(signed.count > original.count)
        let result = signed.withUnsafeBytes { MachOSignatureVerifier(cms: LibcryptoCodeSignatureCMS()).verify($0, path: "libswiftDarwin.dylib") }
        #expect(result.problems == [])
        #expect(result.slices.count == 3)
    }

    @Test("The independent checker (hashlib, plistlib, asn1crypto) and rcodesign accept what the signer wrote, and catch a changed CodeDirectory",
          .enabled(if: PythonOracles.isInstalled))
    func independentChecker() throws {
        let directory = try TemporaryDirectory()
        let (_, signed, _) = try Self.resign(directory)
        let path = directory.child("isignTestApp")
        try Data(signed).write(to: URL(fileURLWithPath: path))
        let script = Repository.root.appendingPathComponent("Tests/Clients/check_code_signature.py").path
        let arguments = [script, path, Self.app + "/Info.plist", Self.app + "/_CodeSignature/CodeResources"]
        let accepted = try runToolNow(PythonOracles.python, arguments)
        #expect(accepted.status == 0, "\(accepted.text) \(accepted.error)")
        #expect(accepted.text.contains("\"problems\": []"), "\(accepted.text)")

        // One byte of the primary CodeDirectory's flags: no hash covers it, the CMS message digest does.
        var tampered = signed
        let location = try signed.withUnsafeBytes { raw -> Int in
            let slice = try MachOFile(bytes: raw).slices[0]
            let bytes = MachOFile.bytes(of: slice, in: raw)
            let command = try #require(try MachOImage(bytes: bytes).codeSignature)
            let signature = try CodeSignature(bytes: try #require(try MachOImage(bytes: bytes).codeSignatureBytes(in: bytes)))
            let directory = try #require(signature.blobs.first { $0.slot == 0 })
            return slice.offset + Int(command.offset) + directory.offset + 15
        }
        tampered[location] ^= 1
        try Data(tampered).write(to: URL(fileURLWithPath: path))
        let refused = try runToolNow(PythonOracles.python, arguments)
        #expect(refused.status == 1, "\(refused.text) \(refused.error)")
        #expect(refused.text.contains("slice 0: the CMS message digest is not that of the primary CodeDirectory"), "\(refused.text)")
    }
}
