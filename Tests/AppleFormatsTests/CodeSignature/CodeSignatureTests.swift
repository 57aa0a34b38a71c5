import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct CodeSignatureTests {
    static func signature(ofSlice index: Int, in data: [UInt8]) throws -> CodeSignature {
        try data.withUnsafeBytes { raw in
            let file = try MachOFile(bytes: raw)
            let slice = MachOFile.bytes(of: file.slices[index], in: raw)
            let image = try MachOImage(bytes: slice)
            guard let blob = image.codeSignatureBytes(in: slice) else { throw CodeSignatureError.malformed("unsigned") }
            return try CodeSignature(bytes: blob)
        }
    }

    static func zipEntry(_ archive: String, _ name: String) throws -> [UInt8] {
        let zip = try ZipArchive(source: ZipMemorySource([UInt8](LocalFixtures.data(archive))))
        return try zip.contents(of: try #require(zip.entry(named: name)))
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsXMLEntitlementsFromRealSignedExecutable() throws {
        let data = [UInt8](try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin"))
        let signature = try Self.signature(ofSlice: 0, in: data)
        #expect(signature.blobs.map(\.slot) == [0, 2, 5, 0x1000, 0x10000])
        #expect(signature.derEntitlements == nil)
        #expect(signature.identifier == "org.fastlane.very-capable-app")
        let entitlements = try #require(try signature.entitlements())
        #expect(entitlements["aps-environment"] == .string("development"))
        #expect(entitlements["com.apple.developer.healthkit"] == .bool(true))
        #expect(entitlements["com.apple.developer.icloud-services"] == .array([.string("CloudDocuments"), .string("CloudKit")]))
        // The xcent beside it is what Xcode signed with; the signature must carry the same values.
        let xcent = try PlistValue(parsing: [UInt8](SharedFixtures.data("macho/entitlements_fastlane_very-capable-app.xcent")))
        for (key, value) in xcent.dictionary ?? [:] { #expect(entitlements[key] == value, "\(key)") }
    }

    @Test func readsAppleFormDERAndXMLEntitlementsFromGeneratedFatExecutable() throws {
        let exe = try Self.zipEntry("formats/app/Beta.ipa", "Payload/Beta.app/Beta")
        for index in 0 ..< 2 {
            let signature = try Self.signature(ofSlice: index, in: exe)
            #expect(signature.identifier == "com.example.beta")
            #expect(signature.teamIdentifier == "ABCDE12345")
            #expect(signature.derEntitlements?.first == 0x70)  // [APPLICATION 16]
            let der = try #require(try signature.parsedDEREntitlements())
            let xml = try #require(try signature.parsedXMLEntitlements())
            #expect(der == xml)
            #expect(der["application-identifier"] == .string("ABCDE12345.com.example.beta"))
            #expect(der["get-task-allow"] == .bool(false))
            #expect(der["com.apple.security.application-groups"] == .array([.string("group.com.example.beta")]))
        }
    }

    @Test func readsBareSetDEREntitlementsFromGeneratedExtension() throws {
        let exe = try Self.zipEntry("formats/app/Beta.ipa", "Payload/Beta.app/PlugIns/BetaWidget.appex/BetaWidget")
        let signature = try Self.signature(ofSlice: 0, in: exe)
        #expect(signature.derEntitlements?.first == 0x31)  // bare SET
        let der = try #require(try signature.parsedDEREntitlements())
        #expect(der["application-identifier"] == .string("ABCDE12345.com.example.beta.widget"))
        #expect(der == (try signature.parsedXMLEntitlements()))
    }

    @Test func refusesBadMagicAndOutOfRangeBlobsWithMessages() {
        let wrong: [UInt8] = [0xfa, 0xde, 0x0c, 0x02, 0, 0, 0, 12, 0, 0, 0, 0]
        let magic = wrong.withUnsafeBytes { raw in #expect(throws: CodeSignatureError.self) { try CodeSignature(bytes: raw) } }
        #expect(magic?.description.hasPrefix("the code signature does not start with the embedded-signature magic 0xfade0cc0 (found 0xfade0c02)") == true)
        // One blob whose length runs past the SuperBlob.
        let past: [UInt8] = [0xfa, 0xde, 0x0c, 0xc0, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 20, 0xfa, 0xde, 0x71, 0x71, 0, 0, 1, 0]
        let range = past.withUnsafeBytes { raw in #expect(throws: CodeSignatureError.self) { try CodeSignature(bytes: raw) } }
        #expect(range?.description.contains("blob in slot 0x5 at offset 20 claims 256 bytes, past the end of the 28-byte SuperBlob") == true)
        let xml: [UInt8] = [0xfa, 0xde, 0x0c, 0xc0, 0, 0, 0, 31, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 20, 0xfa, 0xde, 0x71, 0x71, 0, 0, 0, 11, 0x3c, 0x3f, 0x78]
        let unreadable = xml.withUnsafeBytes { raw -> CodeSignatureError? in
            guard let signature = try? CodeSignature(bytes: raw) else { return nil }
            return #expect(throws: CodeSignatureError.self) { try signature.entitlements() }
        }
        #expect(unreadable?.description.hasPrefix("the XML entitlements in the code signature cannot be read") == true)
    }

    @Test func truncationsAndBitFlipsOfSignaturesNeverTrap() throws {
        let exe = try Self.zipEntry("formats/app/Beta.ipa", "Payload/Beta.app/Beta")
        let blob: [UInt8] = try exe.withUnsafeBytes { raw in
            let file = try MachOFile(bytes: raw)
            let slice = MachOFile.bytes(of: file.slices[0], in: raw)
            return Array(try #require(try MachOImage(bytes: slice).codeSignatureBytes(in: slice)))
        }
        for length in 0 ..< min(blob.count, 700) {
            Array(blob.prefix(length)).withUnsafeBytes { raw in _ = try? CodeSignature(bytes: raw).entitlements() }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2000 {
            var flipped = blob
            let index = Int.random(in: 0 ..< min(blob.count, 1500), using: &generator)
            flipped[index] ^= UInt8(1) << UInt8.random(in: 0 ... 7, using: &generator)
            flipped.withUnsafeBytes { raw in _ = try? CodeSignature(bytes: raw).entitlements() }
        }
    }

    @Test func truncationsAndBitFlipsOfDEREntitlementsNeverTrap() throws {
        for (archivePath, entry) in [("formats/app/Beta.ipa", "Payload/Beta.app/Beta"),
                                     ("formats/app/Beta.ipa", "Payload/Beta.app/PlugIns/BetaWidget.appex/BetaWidget")] {
            let der = try #require(try Self.signature(ofSlice: 0, in: try Self.zipEntry(archivePath, entry)).derEntitlements)
            var refused = 0
            for length in 0 ..< der.count where (try? PlistValue(derBytes: Array(der.prefix(length)))) == nil { refused += 1 }
            // Every strict prefix cuts the outer element, so each one must be refused.
            #expect(refused == der.count)
            for index in 0 ..< der.count {
                for bit in 0 ..< 8 {
                    var flipped = der
                    flipped[index] ^= UInt8(1) << UInt8(bit)
                    _ = try? PlistValue(derBytes: flipped)
                }
            }
        }
    }
}
