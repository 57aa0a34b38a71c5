import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Enrolment replies signed with `openssl cms` by a device certificate of an expired CA
/// (Tests/Fixtures/inspect/enrollment, made by generate.sh).
@Suite struct DeviceEnrollmentReplyTests {
    struct Expected: Decodable {
        struct Cert: Decodable { var subject: String; var notAfter: String; var serial: String }
        var device: Cert
        var deviceCA: Cert
        var server: Cert
        var udid: String
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: LocalFixtures.data("inspect/expected.json"))
    }

    static func reply(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/enrollment/\(name)")) }

    /// openssl's "Mar  1 00:00:00 2022 GMT" as a date.
    static func opensslDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        return formatter.date(from: text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
    }

    @Test(arguments: ["reply-iphone.der", "reply-iphone-ber.der"])
    func readsEveryAttributeOfADERAndABERReply(_ name: String) throws {
        let bytes = try Self.reply(name)
        #expect((bytes[1] == 0x80) == name.contains("ber"), "the fixture is BER exactly when named so")
        let reply = try DeviceEnrollmentReply(bytes: bytes)
        let expected = try Self.expected()
        #expect(reply.udid.value == expected.udid)
        #expect(reply.udid.form == .modern)
        #expect(reply.product == "iPhone15,2")
        #expect(reply.version == "21A329")
        #expect(reply.serial == "F2LXK0ABCDEF")
        #expect(reply.deviceName == "Ann\u{2019}s iPhone")
        #expect(reply.imei == "35 123456 789012 3")
        #expect(reply.challenge == "c-7f3a9b1e5d2c4a6f")
        #expect(reply.usesIndefiniteLengths == name.contains("ber"))
        #expect(reply.certificates.count == 2, "the device certificate and the CA given with -certfile")
    }

    @Test func theSignerIsTheExpiredDeviceCertificateAndIsNotRefused() throws {
        let reply = try DeviceEnrollmentReply(bytes: try Self.reply("reply-iphone.der"))
        let expected = try Self.expected()
        let signer = try #require(reply.signer)
        #expect("CN=" + (signer.subject.commonName ?? "") == expected.device.subject)
        #expect(signer.serialNumberHex == expected.device.serial)
        #expect(signer.notAfter == Self.opensslDate(expected.device.notAfter))
        #expect(signer.issuer.commonName == "Apple iPhone Device CA (betactl fixture)")
        #expect(!signer.isValid(at: Date()), "the certificate expired in 2022, like Apple's device CA")
    }

    @Test func aWiFiOnlyDeviceHasNoIMEIAndAFortyDigitUDID() throws {
        let reply = try DeviceEnrollmentReply(bytes: try Self.reply("reply-ipad-wifi.der"))
        #expect(reply.imei == nil)
        #expect(reply.udid.form == .legacy)
        #expect(reply.product == "iPad13,4")
        #expect(reply.signer != nil)
        #expect(reply.certificates.count == 1)
    }

    @Test func aReplyWithAnInvalidUDIDIsRefusedNamingIt() throws {
        #expect {
            try DeviceEnrollmentReply(bytes: try Self.reply("reply-bad-udid.der"))
        } throws: { error in
            guard let error = error as? DeviceEnrollmentReplyError, case let .invalidUDID(inner) = error else { return false }
            return inner.input == "not-a-udid" && error.description.contains("\"not-a-udid\" is not a device UDID")
        }
    }

    @Test func attributesOfTheWrongTypeOrShapeAreRefused() {
        func refuse(_ entries: [String: PlistValue], _ check: (DeviceEnrollmentReplyError) -> Bool) {
            #expect {
                try DeviceEnrollmentReply(attributes: .dictionary(entries))
            } throws: { error in
                guard let error = error as? DeviceEnrollmentReplyError else { return false }
                return check(error)
            }
        }
        let udid = PlistValue.string("00008110-000A1B2C3D4E5F60")
        refuse([:]) { if case .missingUDID = $0 { true } else { false } }
        refuse(["UDID": .integer(5)]) { $0 == .wrongType(key: "UDID", found: "an integer") }
        refuse(["UDID": udid, "PRODUCT": .string("iPhone")]) { if case .invalidValue(key: "PRODUCT", _, _) = $0 { true } else { false } }
        refuse(["UDID": udid, "PRODUCT": .string("iPhone15,2,1")]) { if case .invalidValue(key: "PRODUCT", _, _) = $0 { true } else { false } }
        refuse(["UDID": udid, "VERSION": .string("21A 329")]) { if case .invalidValue(key: "VERSION", _, _) = $0 { true } else { false } }
        refuse(["UDID": udid, "IMEI": .string("35-1234")]) { if case .invalidValue(key: "IMEI", _, _) = $0 { true } else { false } }
        refuse(["UDID": udid, "DEVICE_NAME": .string("line\nbreak")]) { if case .invalidValue(key: "DEVICE_NAME", _, _) = $0 { true } else { false } }
        refuse(["UDID": udid, "CHALLENGE": .string(String(repeating: "x", count: 1025))]) { $0 == .tooLong(key: "CHALLENGE", length: 1025, limit: 1024) }
        refuse(["UDID": udid, "SERIAL": .data([1])]) { $0 == .wrongType(key: "SERIAL", found: "data") }
        #expect(throws: DeviceEnrollmentReplyError.notADictionary(found: "an array")) { try DeviceEnrollmentReply(attributes: .array([])) }
    }

    @Test func repliesThatAreNotSignedPlistsAreRefused() throws {
        let plist = Array("<?xml version=\"1.0\"?><plist><dict><key>UDID</key><string>00008110-000A1B2C3D4E5F60</string></dict></plist>".utf8)
        #expect {
            try DeviceEnrollmentReply(bytes: plist)
        } throws: { error in
            guard let error = error as? DeviceEnrollmentReplyError, case .envelope(.notSigned) = error else { return false }
            return error.description.contains("not a CMS signed envelope")
        }
        #expect(throws: DeviceEnrollmentReplyError.tooLarge(size: DeviceEnrollmentReply.maxSize + 1, limit: DeviceEnrollmentReply.maxSize)) {
            try DeviceEnrollmentReply(bytes: [UInt8](repeating: 0x30, count: DeviceEnrollmentReply.maxSize + 1))
        }
    }

    @Test(arguments: ["reply-iphone.der", "reply-iphone-ber.der", "reply-ipad-wifi.der"])
    func damagedRepliesGiveATypedErrorOrAValidReply(_ name: String) throws {
        let original = try Self.reply(name)
        var refused = 0
        for (label, bytes) in damagedVariants(of: original) {
            do {
                let reply = try DeviceEnrollmentReply(bytes: bytes)
                // A flip inside a signature or certificate may leave the attributes intact.
                #expect((try? DeviceIdentifier(reply.udid.value)) == reply.udid, "\(label)")
            } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(label)")
            }
        }
        #expect(refused > 0, "every truncation must be refused")
    }
}
