import AppleFormats
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// Verifying CMS SignedData with libcrypto, on the real device reply in shared/fixtures and its
/// tampered and re-signed variants, with `openssl cms -verify` as the oracle for every verdict.
@Suite(.enabled(if: OpenSSLTool.available && CryptoLibrary.isAvailable && SharedFixtures.available,
                "needs openssl, libcrypto and ../shared/fixtures"))
struct CMSSignatureVerifierTests {
    static let replyPath = "enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s"
    static let chainPath = "enrollment/Apple_iPhone_Device_CA_Fullchain.pem"

    static func reply() throws -> [UInt8] { [UInt8](try SharedFixtures.data(replyPath)) }

    /// The fixture's PEM blocks: Apple iPhone Device CA, Apple iPhone Certification Authority, Apple Root CA.
    static func chainBlocks() throws -> [String] {
        let text = String(decoding: try SharedFixtures.data(chainPath), as: UTF8.self)
        return text.components(separatedBy: "-----END CERTIFICATE-----").dropLast()
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n-----END CERTIFICATE-----\n" }
    }

    /// The verifier trusting only Apple Root CA.
    static func appleVerifier() throws -> CMSSignatureVerifier {
        let blocks = try chainBlocks()
        #expect(blocks.count == 3)
        return CMSSignatureVerifier(trusted: try #require(blocks.last))
    }

    /// `bytes` with one byte of the signed plist changed (the serial's first letter, so it still reads).
    static func tampered(_ bytes: [UInt8]) throws -> [UInt8] {
        let marker = Array("<string>ZDL2M9PTJ3".utf8)
        let start = try #require((0 ... bytes.count - marker.count).first { Array(bytes[$0 ..< $0 + marker.count]) == marker })
        var changed = bytes
        changed[start + 8] = UInt8(ascii: "Y")
        return changed
    }

    /// Why `verifier` refuses `bytes`, or nil when it verifies them.
    static func refusal(_ verifier: CMSSignatureVerifier, _ bytes: [UInt8]) -> CMSVerificationError? {
        do {
            _ = try verifier.verify(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theRealReplyVerifiesThroughAppleDeviceCAToAppleRootCAAndOpenSSLAgrees() async throws {
        let directory = try TemporaryDirectory("verify")
        let verified = try Self.appleVerifier().verify(try Self.reply())
        let text = String(decoding: verified.content, as: UTF8.self)
        #expect(text.contains("<string>78897E40-F532-5DE0-A7DC-56BAC5CEEB9C</string>"))
        #expect(verified.content == (try CMSSignedPlist(bytes: try Self.reply())).plistBytes, "the content as signed")
        let chain = try #require(verified.signerChains.first)
        #expect(verified.signerChains.count == 1)
        #expect(chain.count == 4)
        let certificates = try chain.map { try Certificate(der: $0) }
        #expect(certificates.map { $0.subject.commonName } == ["0B5938EB-A130-466F-BFA5-BFA950500D03", "Apple iPhone Device CA",
                                                                "Apple iPhone Certification Authority", "Apple Root CA"])
        #expect(certificates.contains { !$0.isValid(at: Date()) }, "dates are not enforced: the intermediates expired long ago")
        let caFile = SharedFixtures.url(Self.chainPath).path
        #expect(try await OpenSSLTool.verifies(try Self.reply(), caFile: caFile, in: directory))
        #expect(try await !OpenSSLTool.verifies(try Self.reply(), caFile: caFile, checkTime: true, in: directory),
                "with dates checked even openssl refuses Apple's expired chain")
    }

    @Test func oneByteChangedInTheSignedPlistIsRefusedAndOpenSSLAgrees() async throws {
        let directory = try TemporaryDirectory("verify")
        let changed = try Self.tampered(try Self.reply())
        let refusal = Self.refusal(try Self.appleVerifier(), changed)
        guard case .badSignature = refusal else {
            Issue.record("expected badSignature, got \(String(describing: refusal))")
            return
        }
        #expect(try await !OpenSSLTool.verifies(changed, caFile: SharedFixtures.url(Self.chainPath).path, in: directory))
    }

    @Test func theSameContentReSignedByASelfMadeCertificateIsRefusedAndOpenSSLAgrees() async throws {
        let directory = try TemporaryDirectory("verify")
        let content = try CMSSignedPlist(bytes: try Self.reply()).plistBytes
        let device = try await OpenSSLTool.makeDeviceIdentity(in: directory)
        let resigned = try await OpenSSLTool.signDER(content, certificate: device.certificate, key: device.key, certfile: nil, in: directory)
        let refusal = Self.refusal(try Self.appleVerifier(), resigned)
        guard case let .untrustedSigner(subject, _) = refusal else {
            Issue.record("expected untrustedSigner, got \(String(describing: refusal))")
            return
        }
        #expect(subject == "\"00008120-001A2B3C4D5E6F70\"")
        #expect(try await !OpenSSLTool.verifies(resigned, caFile: SharedFixtures.url(Self.chainPath).path, in: directory))
        // The same signature is good against its own root: the refusal is about trust, not the signature.
        #expect(try CMSSignatureVerifier(trusted: String(contentsOfFile: device.certificate, encoding: .utf8)).verify(resigned).content == content)
        #expect(try await OpenSSLTool.verifies(resigned, caFile: device.certificate, in: directory))
    }

    @Test func aChainThatOnlyCopiesApplesNamesIsRefusedAndOpenSSLAgrees() async throws {
        let directory = try TemporaryDirectory("verify")
        let content = try CMSSignedPlist(bytes: try Self.reply()).plistBytes
        let fake = try await OpenSSLTool.makeLookalikeAppleChain(in: directory)
        let forged = try await OpenSSLTool.signDER(content, certificate: fake.certificate, key: fake.key, certfile: fake.intermediates,
                                                   in: directory)
        #expect(throws: CMSVerificationError.self) { try Self.appleVerifier().verify(forged) }
        #expect(try await !OpenSSLTool.verifies(forged, caFile: SharedFixtures.url(Self.chainPath).path, in: directory))
        let ownRoot = try String(contentsOfFile: fake.root, encoding: .utf8)
        #expect(try CMSSignatureVerifier(trusted: ownRoot).verify(forged).signerChains.first?.count == 4, "it is a good chain to its own root")
    }

    @Test func bytesThatAreNotSignedDataAreRefusedAsUnreadable() throws {
        let refusal = Self.refusal(try Self.appleVerifier(), Array("not a signature".utf8))
        guard case .unreadable = refusal else {
            Issue.record("expected unreadable, got \(String(describing: refusal))")
            return
        }
        #expect(throws: CMSVerificationError.unreadableAnchor) { try CMSSignatureVerifier(trusted: "no certificate here").verify(try Self.reply()) }
    }
}
