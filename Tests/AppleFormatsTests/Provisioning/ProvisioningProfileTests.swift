import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct ProvisioningProfileTests {
    static func load(_ name: String) throws -> ProvisioningProfile {
        try ProvisioningProfile(bytes: [UInt8](SharedFixtures.data("profiles/\(name).mobileprovision")))
    }

    static func utc(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? .distantPast
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsAdHocProfileWithDevicesAndDistributionCertificate() throws {
        let profile = try Self.load("adhoc_2021_Ververtom_WebclipTest")
        #expect(profile.name == "iOS Team Ad Hoc Provisioning Profile: com.kinde1.tgkin")
        #expect(profile.uuid == "21c1e460-ae4d-4367-94fe-f179b81e3dc2")
        #expect(profile.teamIdentifier == "9V4LCB27JP")
        #expect(profile.applicationIdentifier == "9V4LCB27JP.com.kinde1.tgkin")
        #expect(profile.appIDName == "XC com kinde1 tgkin")
        #expect(profile.platforms == ["iOS"])
        #expect(profile.provisionedDevices?.count == 2)
        #expect(profile.distributionType == nil)
        #expect(profile.type == .adHoc)
        #expect(profile.expirationDate == Self.utc("2022-05-10T07:43:20Z"))
        #expect(!profile.usesBER)
        let certificate = try #require(profile.developerCertificates.first)
        #expect(certificate.subject.commonName == "Apple Distribution: shaoding yang (9V4LCB27JP)")
        #expect(certificate.subject.description == "UID=9V4LCB27JP, CN=Apple Distribution: shaoding yang (9V4LCB27JP), OU=9V4LCB27JP, O=shaoding yang, C=US")
        #expect(certificate.serialNumberHex == "255005035AE677882CA4407035AFA0E0")
        #expect(certificate.sha1Fingerprint.colonSeparatedHex == "09:51:62:E4:2B:6D:D2:67:6E:F5:D4:50:9D:FB:9C:6A:F4:31:4A:23")
        #expect(certificate.notBefore == Self.utc("2021-05-10T07:43:21Z"))
        #expect(certificate.notAfter == Self.utc("2022-05-10T07:43:20Z"))
        #expect(profile.signer?.subject.commonName == "Apple iPhone OS Provisioning Profile Signing")
        #expect(profile.signer?.issuer.commonName == "Apple iPhone Certification Authority")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func classifiesEveryRealProfileType() throws {
        let expected: [(String, ProfileType, String?)] = [
            ("adhoc_2021_Ververtom_WebclipTest", .adHoc, nil),
            ("appstore_2015_fastlane_test", .appStore, nil),
            ("appstore_modern_samjan190799-cmyk_Focal", .appStore, "STORE"),
            ("development_modern_OutrageousStorm_test1", .development, "LIMITED"),
            ("development_2019_Mosquito1123_udid_resign", .development, nil),
            ("development_BER_indefinite_fastlane_very-capable-app", .development, nil),
            ("enterprise_modern_fellw_mda-distribute-app", .enterprise, "IN_HOUSE"),
            ("enterprise_2015_caizj-cn_ipa-resign_dkl", .enterprise, nil),
        ]
        for (name, type, distribution) in expected {
            let profile = try Self.load(name)
            #expect(profile.type == type, "\(name)")
            #expect(profile.distributionType == distribution, "\(name)")
        }
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsModernDevelopmentProfileWithManyDevicesAndCertificates() throws {
        let profile = try Self.load("development_modern_OutrageousStorm_test1")
        #expect(profile.provisionedDevices?.count == 48)
        // Both the 25-character (00008xxx-…) and 40-character forms are read as valid UDIDs.
        let forms = Set(profile.provisionedDeviceIdentifiers.map(\.form))
        #expect(forms == [.modern, .legacy])
        #expect(profile.provisionedDeviceIdentifiers.count == 48)
        let first = try #require(profile.provisionedDeviceIdentifiers.first)
        #expect(profile.includesDevice(first))
        #expect(!profile.includesDevice(try DeviceIdentifier("00008030-0000000000000000")))
        #expect(profile.developerCertificates.count == 7)
        #expect(profile.developerCertificates.first?.serialNumberHex == "7DDCE90C612D8324E745ED5EE8CBFDD6")
        #expect(profile.getTaskAllow)
        #expect(profile.covers(bundleID: "com.minasoft.minarestores.TunnelProv"))
        #expect(!profile.covers(bundleID: "com.minasoft.minarestores"))
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsBERIndefiniteLengthProfileWithConstructedOctetString() throws {
        let profile = try Self.load("development_BER_indefinite_fastlane_very-capable-app")
        #expect(profile.usesBER)
        #expect(profile.name == "org.fastlane.very-capable-app Development")
        #expect(profile.uuid == "12345678-1234-1234-1234-123456789012")
        #expect(profile.teamIdentifier == "TestFixture")
        #expect(profile.signer?.subject.commonName == "TestFixture")
        #expect(profile.signer?.serialNumberHex == "01")
        #expect(profile.signer?.subject.value(for: "1.2.840.113549.1.9.1") == "textfixture@fixture.com")
        #expect(profile.developerCertificates.first?.sha1Fingerprint.colonSeparatedHex == "C8:D1:AA:C6:7C:23:18:65:01:A9:DD:C9:33:56:D8:E1:4A:E2:9E:14")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsEnterpriseProfileThatProvisionsAllDevices() throws {
        let profile = try Self.load("enterprise_modern_fellw_mda-distribute-app")
        #expect(profile.provisionsAllDevices)
        #expect(profile.provisionedDevices == nil)
        #expect(profile.includesDevice(try DeviceIdentifier("00008030-0000000000000000")))
        #expect(profile.developerCertificates.first?.subject.commonName == "iPhone Distribution: Shanghai Longcheer Technology Co., Ltd.")
        #expect(profile.developerCertificates.first?.subject.value(for: "2.5.4.6") == "CN")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func refusesTruncatedProfileAndSaysThePlistCanBeRecovered() throws {
        let bytes = [UInt8](try SharedFixtures.data("profiles/malformed_truncated_iterable_dev-1.mobileprovision"))
        do {
            _ = try ProvisioningProfile(bytes: bytes)
            Issue.record("a truncated profile was accepted")
        } catch {
            guard case let .truncated(fileSize, _, recovery) = error else {
                Issue.record("expected .truncated, got \(error)")
                return
            }
            #expect(fileSize == 2942)
            #expect(recovery?.name == "XC iOS: ace.something")
            #expect(recovery?.uuid == "fb0d2833-60cf-49b3-b58f-4b7708c1d344")
            #expect(error.description.contains("the profile is truncated (the file has only 2942 bytes)"))
            #expect(error.description.contains("The plist inside is intact and can be recovered (\"XC iOS: ace.something\", UUID fb0d2833-60cf-49b3-b58f-4b7708c1d344)"))
            #expect(error.description.contains("download the profile again"))
        }
    }

    @Test(.enabled(if: SharedFixtures.available))
    func truncatingBeforeThePlistEndsSaysItCannotBeRecovered() throws {
        let bytes = [UInt8](try SharedFixtures.data("profiles/adhoc_2021_Ververtom_WebclipTest.mobileprovision"))
        let error = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: Array(bytes.prefix(1000))) }
        #expect(error?.description.contains("cannot be recovered either") == true)
        let later = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: Array(bytes.prefix(5000))) }
        #expect(later?.description.contains("intact and can be recovered") == true)
    }

    @Test func refusesEmptyFilesAndBarePlistsWithSpecificMessages() throws {
        let empty = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: []) }
        #expect(empty?.description == "the profile file is empty; download the profile again from the Apple Developer portal (Certificates, Identifiers & Profiles) or export it from Xcode")
        let bare = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: Array("<?xml version=\"1.0\"?><plist/>".utf8)) }
        #expect(bare?.description.hasPrefix("not a provisioning profile: the file is a bare property list without Apple's signature") == true)
        let text = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: Array("hello".utf8)) }
        #expect(text?.description.contains("does not start with an ASN.1 SEQUENCE (first byte 0x68)") == true)
    }

    @Test func refusesPlistsMissingRequiredKeysOrWithWrongTypes() throws {
        let base: [String: PlistValue] = [
            "Name": .string("P"), "UUID": .string("ABC"), "TeamIdentifier": .array([.string("T")]),
            "CreationDate": .date(Date(timeIntervalSince1970: 0)), "ExpirationDate": .date(Date(timeIntervalSince1970: 10)),
        ]
        let profile = try ProvisioningProfile(plist: .dictionary(base), bytes: [])
        #expect(profile.uuid == "abc")
        #expect(profile.type == .appStore)
        var missing = base
        missing["UUID"] = nil
        let missingError = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(plist: .dictionary(missing), bytes: []) }
        #expect(missingError?.description.hasPrefix("the profile has no UUID key") == true)
        var wrong = base
        wrong["ProvisionedDevices"] = .string("oops")
        let wrongError = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(plist: .dictionary(wrong), bytes: []) }
        #expect(wrongError?.description.hasPrefix("the profile's ProvisionedDevices is a string instead of an array of strings") == true)
    }

    @Test func coversBundleIDsWithExactAndWildcardApplicationIdentifiers() throws {
        func profile(_ identifier: String) throws -> ProvisioningProfile {
            try ProvisioningProfile(plist: .dictionary([
                "Name": .string("P"), "UUID": .string("u"), "TeamIdentifier": .array([.string("ABCDE12345")]),
                "CreationDate": .date(.distantPast), "ExpirationDate": .date(.distantFuture),
                "Entitlements": .dictionary(["application-identifier": .string(identifier)]),
            ]), bytes: [])
        }
        #expect(try profile("ABCDE12345.com.example.app").covers(bundleID: "com.example.app"))
        #expect(try !profile("ABCDE12345.com.example.app").covers(bundleID: "com.example.app.widget"))
        #expect(try profile("ABCDE12345.*").covers(bundleID: "anything.at.all"))
        #expect(try profile("ABCDE12345.com.example.*").covers(bundleID: "com.example.app"))
        #expect(try !profile("ABCDE12345.com.example.*").covers(bundleID: "com.other.app"))
        #expect(try !profile("ZZZZZ99999.com.example.app").covers(bundleID: "com.example.app"))
    }

    @Test(.enabled(if: SharedFixtures.available))
    func truncationAndBitFlipSweepsNeverTrap() throws {
        for name in ["adhoc_2021_Ververtom_WebclipTest", "development_BER_indefinite_fastlane_very-capable-app"] {
            let bytes = [UInt8](try SharedFixtures.data("profiles/\(name).mobileprovision"))
            var refused = 0
            for length in stride(from: 0, to: bytes.count, by: 13) {
                if (try? ProvisioningProfile(bytes: Array(bytes.prefix(length)))) == nil { refused += 1 }
            }
            // Every strict prefix cuts the envelope, so every one must be refused.
            #expect(refused == (bytes.count + 12) / 13, "\(name)")
            var generator = SystemRandomNumberGenerator()
            for _ in 0 ..< 400 {
                var flipped = bytes
                let index = Int.random(in: 0 ..< flipped.count, using: &generator)
                flipped[index] ^= UInt8(1) << UInt8.random(in: 0 ... 7, using: &generator)
                _ = try? ProvisioningProfile(bytes: flipped)
            }
            // Flip every bit of the envelope header region deterministically too.
            for index in 0 ..< 80 {
                for bit in 0 ..< 8 {
                    var flipped = bytes
                    flipped[index] ^= UInt8(1) << UInt8(bit)
                    _ = try? ProvisioningProfile(bytes: flipped)
                }
            }
        }
    }
}

@Suite struct GeneratedProfileTests {
    struct Expected: Decodable {
        var certificateSHA1: String
        var certificateSerial: String
        var certificateCN: String
    }

    @Test func readsProfilesSignedWithOpensslCMSInDERAndStreamedBER() throws {
        let expected = try JSONDecoder().decode(Expected.self, from: LocalFixtures.data("formats/profiles/expected.json"))
        let der = try ProvisioningProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/beta_adhoc.mobileprovision")))
        let ber = try ProvisioningProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/beta_adhoc_ber.mobileprovision")))
        #expect(!der.usesBER)
        #expect(ber.usesBER)
        #expect(der.plist == ber.plist)
        for profile in [der, ber] {
            #expect(profile.name == "Beta Ad Hoc")
            #expect(profile.type == .adHoc)
            #expect(profile.signer?.subject.commonName == expected.certificateCN)
            #expect(profile.signer?.serialNumberHex == expected.certificateSerial)
            #expect(profile.developerCertificates.first?.sha1Fingerprint.colonSeparatedHex == expected.certificateSHA1)
            #expect(profile.provisionedDeviceIdentifiers.count == 3)
        }
        #expect(try ProvisioningProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/beta_enterprise.mobileprovision"))).type == .enterprise)
        #expect(try ProvisioningProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/beta_development.mobileprovision"))).type == .development)
    }
}

@Suite struct SignedContentRefusalTests {
    /// Signs `payload` with a throwaway certificate (for the cached test key) through `openssl cms`, detached or not.
    static func sign(_ payload: String, detached: Bool) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cms-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try payload.write(toFile: dir + "/payload", atomically: true, encoding: .utf8)
        func openssl(_ arguments: [String]) throws {
            guard try runToolNow("openssl", arguments, directory: dir).status == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        try TestKeys.rsa("profile-signer", copiedTo: dir + "/key.pem")
        try openssl(["req", "-x509", "-key", "key.pem", "-out", "cert.pem", "-days", "1", "-subj", "/CN=throwaway"])
        try openssl(["cms", "-sign", "-binary", "-outform", "DER", "-in", "payload", "-signer", "cert.pem", "-inkey", "key.pem", "-out", "signed"]
                    + (detached ? [] : ["-nodetach"]))
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/signed")))
    }

    @Test func refusesDetachedSignaturesAndContentThatIsNotAPlist() throws {
        let detached = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: try Self.sign("<plist/>", detached: true)) }
        #expect(detached?.description.hasPrefix("the profile's signature carries no content (a detached signature)") == true)
        let text = #expect(throws: ProvisioningProfileError.self) { try ProvisioningProfile(bytes: try Self.sign("just some text", detached: false)) }
        #expect(text?.description.hasPrefix("the profile's content is not a readable property list: the XML property list (14 bytes) cannot be parsed") == true)
    }
}
