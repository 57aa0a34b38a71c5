import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// `.mobileconfig` files, unsigned and signed with `openssl cms` (DER and BER), and profiles
/// written by betactl and read back by real clients.
@Suite struct ConfigurationProfileTests {
    static func file(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/mobileconfig/\(name)")) }

    @Test(arguments: ["profile-service.mobileconfig", "profile-service-signed.mobileconfig", "profile-service-signed-ber.mobileconfig"])
    func readsAProfileServicePayloadSignedOrNot(_ name: String) throws {
        let file = try MobileConfig(bytes: try Self.file(name))
        #expect(file.isSigned == name.contains("signed"))
        #expect(file.usesIndefiniteLengths == name.contains("ber"))
        let profile = file.profile
        #expect(profile.payloadType == "Profile Service")
        #expect(profile.identifier == "com.example.beta.enroll")
        #expect(profile.uuid == "6F1D2C3B-4A59-4E6D-8C7B-9A0B1C2D3E4F")
        #expect(profile.displayName == "Example Beta enrolment")
        #expect(profile.organization == "Example Beta")
        #expect(profile.payloadTypes == ["Profile Service"])
        let service = try #require(profile.profileService)
        #expect(service.url == "https://beta.example.com/enroll/t0k3n")
        #expect(service.deviceAttributes == ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"])
        #expect(service.challenge == "c-7f3a9b1e5d2c4a6f")
        if file.isSigned {
            let signer = try #require(file.signer)
            #expect(signer.subject.commonName == "beta.example.com (betactl fixture)")
            #expect(signer.serialNumberHex == "1092")
        } else {
            #expect(file.signer == nil)
        }
    }

    @Test(arguments: ["configuration-wifi.mobileconfig", "configuration-wifi-signed.mobileconfig"])
    func readsTheListOfPayloadsOfAConfigurationProfile(_ name: String) throws {
        let profile = try MobileConfig(bytes: try Self.file(name)).profile
        #expect(profile.payloadType == "Configuration")
        #expect(profile.payloadTypes == ["com.apple.wifi.managed", "com.apple.security.root"])
        #expect(profile.profileService == nil)
        guard case let .payloads(payloads) = profile.content else { Issue.record("no payloads"); return }
        #expect(payloads[0].settings["SSID_STR"] == .string("Example"))
        #expect(payloads[0].settings["PayloadType"] == nil, "the typed fields are not repeated in the settings")
        #expect(payloads[1].settings["PayloadContent"] == .data(Array("not a real certificate".utf8)))
    }

    @Test func aProfileWrittenByBetactlReadsBackTheSameHereAndInPythonsPlistlib() async throws {
        let profile = ConfigurationProfile(
            payloadType: ConfigurationProfile.profileServiceType, identifier: "com.example.beta.enroll.ann",
            uuid: "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0", displayName: "Beta <& \"Ann\">", organization: "Example",
            content: .profileService(.init(url: "https://beta.example.com/enroll?token=a&b", deviceAttributes: ["UDID", "PRODUCT"], challenge: "c-1")))
        let xml = try profile.xmlBytes()
        #expect(try ConfigurationProfile(plistBytes: xml) == profile)
        #expect(try ConfigurationProfile(plist: PlistValue(parsing: try profile.plist.binaryBytes())) == profile)
        let script = """
        import plistlib, sys, json
        p = plistlib.loads(sys.stdin.buffer.read())
        print(json.dumps([p["PayloadType"], p["PayloadDisplayName"], p["PayloadContent"]["URL"], p["PayloadContent"]["DeviceAttributes"], p["PayloadContent"]["Challenge"], p["PayloadVersion"]]))
        """
        let python = try await runTool("python3", ["-c", script], input: Data(xml))
        #expect(python.status == 0, "\(python.error)")
        #expect(python.text.trimmingCharacters(in: .whitespacesAndNewlines)
            == #"["Profile Service", "Beta <& \"Ann\">", "https://beta.example.com/enroll?token=a&b", ["UDID", "PRODUCT"], "c-1", 1]"#)
    }

    @Test func aProfileWrittenByBetactlAndSignedWithOpensslReadsBackSigned() async throws {
        let directory = try TemporaryDirectory("mobileconfig")
        let profile = ConfigurationProfile(payloadType: "Configuration", identifier: "com.example.x", uuid: "11111111-2222-4333-8444-555555555555",
                                           content: .payloads([.init(type: "com.apple.webClip.managed", identifier: "com.example.x.clip",
                                                                     uuid: "66666666-7777-4888-8999-000000000000", settings: ["URL": .string("https://example.com")])]))
        let plain = try directory.write("x.mobileconfig", try profile.xmlBytes())
        let key = directory.child("key.pem"), cert = directory.child("cert.pem"), signed = directory.child("x-signed.mobileconfig")
        try await blocking { _ = try TestKeys.rsa("mobileconfig-signer", copiedTo: key) }
        let request = try await runTool("openssl", ["req", "-x509", "-key", key, "-out", cert, "-days", "1", "-subj", "/CN=test signer"])
        #expect(request.status == 0, "\(request.error)")
        for ber in [false, true] {
            let sign = try await runTool("openssl", ["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plain, "-signer", cert, "-inkey", key, "-out", signed] + (ber ? ["-stream"] : []))
            #expect(sign.status == 0, "\(sign.error)")
            let file = try MobileConfig(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: signed))))
            #expect(file.profile == profile)
            #expect(file.isSigned && file.usesIndefiniteLengths == ber)
            #expect(file.signer?.subject.commonName == "test signer")
        }
    }

    @Test func missingOrMistypedRequiredKeysAreRefusedNamingThem() throws {
        func refuse(_ text: String, _ check: (ConfigurationProfileError) -> Bool) {
            #expect {
                try ConfigurationProfile(plistBytes: Array(("<plist><dict>" + text + "</dict></plist>").utf8))
            } throws: { error in (error as? ConfigurationProfileError).map(check) ?? false }
        }
        let head = "<key>PayloadType</key><string>Profile Service</string><key>PayloadIdentifier</key><string>x</string><key>PayloadUUID</key><string>u</string>"
        refuse("") { $0 == .missingKey("PayloadType", in: "the profile") }
        refuse(head) { $0 == .missingKey("PayloadContent", in: "the profile") }
        refuse(head + "<key>PayloadContent</key><array/>") { if case .wrongType(key: "PayloadContent", _, expected: "a dictionary", _) = $0 { true } else { false } }
        refuse(head + "<key>PayloadContent</key><dict><key>URL</key><string>ftp://x/y</string><key>DeviceAttributes</key><array><string>UDID</string></array></dict>") {
            if case .invalidValue(key: "URL", _, _) = $0 { true } else { false }
        }
        refuse(head + "<key>PayloadContent</key><dict><key>URL</key><string>https://x/y</string><key>DeviceAttributes</key><array/></dict>") {
            if case .wrongType(key: "DeviceAttributes", _, _, _) = $0 { true } else { false }
        }
        refuse(head + "<key>PayloadVersion</key><string>1</string><key>PayloadContent</key><dict/>") { $0 == .wrongType(key: "PayloadVersion", in: "the profile", expected: "an integer", found: "a string") }
        refuse("<key>PayloadType</key><string>Configuration</string><key>PayloadIdentifier</key><string>x</string><key>PayloadUUID</key><string>u</string><key>PayloadContent</key><array><dict/></array>") {
            $0 == .missingKey("PayloadType", in: "payload 1")
        }
    }

    @Test(arguments: ["profile-service-signed.mobileconfig", "profile-service-signed-ber.mobileconfig", "configuration-wifi.mobileconfig"])
    func damagedProfilesGiveATypedErrorOrAProfileThatWritesBack(_ name: String) throws {
        var refused = 0
        for (label, bytes) in damagedVariants(of: try Self.file(name)) {
            let file: MobileConfig
            do { file = try MobileConfig(bytes: bytes) } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(label)")
                continue
            }
            #expect(try ConfigurationProfile(plistBytes: try file.profile.xmlBytes()) == file.profile, "\(label)")
        }
        #expect(refused > 0)
    }
}
