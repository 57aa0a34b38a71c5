import AppleFormats
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// Signing with the system's libcrypto, checked by the `openssl` command line and by betactl's own
/// CMS reader.
@Suite(.enabled(if: OpenSSLTool.available && CryptoLibrary.isAvailable, "needs openssl and libcrypto (.ci/install-deps --test)"))
struct CMSSigningIdentityTests {
    static let plist = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>PayloadType</key><string>Profile Service</string></dict></plist>

        """.utf8)

    @Test func aSignatureVerifiesWithOpenSSLAndCarriesTheContentUnchanged() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        let identity = try CMSSigningIdentity(certificates: Array(try Data(contentsOf: URL(fileURLWithPath: made.certificate))),
                                              privateKey: Array(try Data(contentsOf: URL(fileURLWithPath: made.key))))
        let signed = try identity.sign(Self.plist)
        let content = try await OpenSSLTool.verify(signed, caFile: made.caCertificate, in: directory)
        #expect(Array(content) == Self.plist, "the signed content is byte for byte what was given (binary mode: no CRLF)")
        let envelope = try CMSSignedPlist(bytes: signed)
        #expect(envelope.plistBytes == Self.plist)
        #expect(envelope.envelope.signer?.subject.commonName == made.commonName)
        #expect(!envelope.envelope.usesIndefiniteLengths, "DER, as devices expect")
    }

    @Test func aChainInTheCertificateFileIsSentAlongAndTheKeyPicksTheSigner() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        // The CA first: the signer is the certificate the key belongs to, wherever it is in the file.
        let bundle = try Data(contentsOf: URL(fileURLWithPath: made.caCertificate)) + Data(contentsOf: URL(fileURLWithPath: made.certificate))
            + Data(contentsOf: URL(fileURLWithPath: made.key))
        let identity = try CMSSigningIdentity(certificates: Array(bundle))
        #expect(identity.chainCount == 1)
        #expect(try Certificate(der: identity.certificateDER).subject.commonName == made.commonName)
        let envelope = try CMSSignedPlist(bytes: try identity.sign(Self.plist))
        #expect(envelope.envelope.certificates.count == 2)
        #expect(envelope.envelope.signer?.subject.commonName == made.commonName)
    }

    @Test func theNormalFormReadsBackAsTheSameIdentity() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        let first = try CMSSigningIdentity(certificates: Array(try Data(contentsOf: URL(fileURLWithPath: made.certificate))),
                                           privateKey: Array(try Data(contentsOf: URL(fileURLWithPath: made.key))))
        let again = try CMSSigningIdentity(certificates: Array(first.certificatePEM.utf8), privateKey: Array(first.privateKeyPEM.utf8))
        #expect(again == first)
        #expect(first.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func aDERCertificateAndAnEncryptedKeyWithItsPassphraseAreRead() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        let der = directory.child("signer.der"), encrypted = directory.child("signer-encrypted.key")
        try await OpenSSLTool.run(["x509", "-in", made.certificate, "-outform", "DER", "-out", der])
        try await OpenSSLTool.run(["pkey", "-in", made.key, "-aes256", "-passout", "pass:open sesame", "-out", encrypted])
        let certificate = Array(try Data(contentsOf: URL(fileURLWithPath: der)))
        let key = Array(try Data(contentsOf: URL(fileURLWithPath: encrypted)))
        let identity = try CMSSigningIdentity(certificates: certificate, privateKey: key, passphrase: "open sesame")
        #expect(identity.certificateDER == certificate)
        #expect(throws: CMSSigningError.unreadableKey("it is encrypted and no passphrase was given")) {
            try CMSSigningIdentity(certificates: certificate, privateKey: key)
        }
        let wrong = #expect(throws: CMSSigningError.self) { try CMSSigningIdentity(certificates: certificate, privateKey: key, passphrase: "wrong") }
        #expect(wrong?.description.hasPrefix("the private key could not be read") == true)
    }

    @Test func pkcs12FilesOpenWithTheirPasswordIncludingLegacyEncryption() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        for legacy in [false, true] {
            let path = try await OpenSSLTool.pkcs12(made, password: "s3cret", legacy: legacy, in: directory)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let identity = try CMSSigningIdentity(pkcs12: bytes, password: "s3cret")
            #expect(try Certificate(der: identity.certificateDER).subject.commonName == made.commonName, "legacy: \(legacy)")
            #expect(identity.chainCount == 1)
            let content = try await OpenSSLTool.verify(try identity.sign(Self.plist), caFile: made.caCertificate, in: directory)
            #expect(Array(content) == Self.plist)
            let refused = #expect(throws: CMSSigningError.self) { try CMSSigningIdentity(pkcs12: bytes, password: "guess") }
            guard case .unreadablePKCS12? = refused else {
                Issue.record("a wrong password is an unreadable .p12, not \(String(describing: refused))")
                continue
            }
        }
    }

    @Test func aKeyThatBelongsToNoCertificateAndFilesWithoutCertificatesAreRefused() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        let other = try await OpenSSLTool.makeIdentity(in: directory, name: "other")
        let certificate = Array(try Data(contentsOf: URL(fileURLWithPath: made.certificate)))
        #expect(throws: CMSSigningError.keyMatchesNoCertificate(certificates: 1)) {
            try CMSSigningIdentity(certificates: certificate, privateKey: Array(try Data(contentsOf: URL(fileURLWithPath: other.key))))
        }
        #expect(throws: CMSSigningError.noCertificate) {
            try CMSSigningIdentity(certificates: Array("not a certificate at all".utf8), privateKey: Array(try Data(contentsOf: URL(fileURLWithPath: made.key))))
        }
        #expect(throws: CMSSigningError.noCertificate) {
            try CMSSigningIdentity(certificates: Array(try Data(contentsOf: URL(fileURLWithPath: made.key))))
        }
        let garbage = #expect(throws: CMSSigningError.self) { try CMSSigningIdentity(pkcs12: patternBytes(600), password: "x") }
        #expect(garbage?.description.contains(".p12 file could not be opened") == true)
    }

    @Test func damagedInputsAlwaysComeBackAsTypedErrors() async throws {
        let directory = try TemporaryDirectory("cms")
        let made = try await OpenSSLTool.makeIdentity(in: directory)
        let certificate = Array(try Data(contentsOf: URL(fileURLWithPath: made.certificate)))
        let key = Array(try Data(contentsOf: URL(fileURLWithPath: made.key)))
        let p12 = Array(try Data(contentsOf: URL(fileURLWithPath: try await OpenSSLTool.pkcs12(made, password: "pw", in: directory))))
        // Truncations at every 97th byte: each either reads (when what is left still holds the whole
        // certificate and key) or names what is wrong.
        for cut in stride(from: 0, to: certificate.count, by: 97) {
            do {
                _ = try CMSSigningIdentity(certificates: Array(certificate.prefix(cut)), privateKey: key)
                Issue.record("a certificate cut at \(cut) of \(certificate.count) bytes was accepted")
            } catch {
                #expect(error == .noCertificate)
            }
        }
        for cut in stride(from: 0, to: p12.count, by: 61) {
            #expect(throws: CMSSigningError.self) { try CMSSigningIdentity(pkcs12: Array(p12.prefix(cut)), password: "pw") }
        }
    }
}
