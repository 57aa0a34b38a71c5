@testable import AppleFormats
import Foundation
import Testing
import TestSupport

/// App Store binaries (FairPlay, LC_ENCRYPTION_INFO with cryptid != 0) can be neither verified nor re-signed.
@Suite("Encrypted binaries", .enabled(if: SharedFixtures.available))
struct EncryptedBinaryTests {
    /// fastlane's executable (which has an LC_ENCRYPTION_INFO_64 with cryptid 0, as exported) with `cryptid` set.
    static func encrypted(cryptid: UInt32) throws -> [UInt8] {
        var bytes = [UInt8](try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin"))
        let count = Int(bytes[16]) | Int(bytes[17]) << 8
        var offset = 32
        for _ in 0 ..< count {
            let command = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
            if command == 0x2c {  // LC_ENCRYPTION_INFO_64: cryptoff, cryptsize, cryptid
                bytes[offset + 16] = UInt8(cryptid)
                return bytes
            }
            offset += size
        }
        Issue.record("the fixture has no LC_ENCRYPTION_INFO_64")
        return bytes
    }

    struct NeverSigns: CodeSignatureCMSSigning {
        var signerCommonName: String { "nobody" }
        func signCodeDirectory(_ codeDirectory: [UInt8], cdHashesPlist: [UInt8]) throws -> [UInt8] {
            Issue.record("an encrypted binary must be refused before anything is signed")
            return []
        }
    }

    @Test("The verifier refuses an encrypted binary, saying to re-sign the exported build")
    func verifierRefuses() throws {
        let bytes = try Self.encrypted(cryptid: 1)
        let result = bytes.withUnsafeBytes { MachOSignatureVerifier(cms: nil).verify($0, path: "Payload/App.app/App") }
        #expect(result.problems == [CodeSignatureProblem(path: "Payload/App.app/App", cause: .encrypted)])
        #expect(result.problems.first?.description.contains("re-sign the exported build") == true)
        let decrypted = try Self.encrypted(cryptid: 0)
        let accepted = decrypted.withUnsafeBytes { MachOSignatureVerifier(cms: nil).verify($0, path: "App") }
        #expect(!accepted.problems.contains { $0.cause == .encrypted }, "cryptid 0 is a decrypted (or never encrypted) binary")
    }

    @Test("The signer refuses an encrypted binary before signing anything")
    func signerRefuses() throws {
        let bytes = try Self.encrypted(cryptid: 1)
        #expect(throws: CodeSigningError.encrypted(path: "App")) {
            try MachOSigner(cms: NeverSigns()).sign(bytes, path: "App", parameters: .init(identifier: "org.fastlane.very-capable-app", teamIdentifier: nil))
        }
    }
}
