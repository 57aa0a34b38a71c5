import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// The one public reply a real device posted (a macOS 13 virtual machine, shared/fixtures/enrollment):
/// devices without a modem send empty `IMEI` and `MEID`, which read as absent.
@Suite struct RealDeviceReplyTests {
    static let udid = PlistValue.string("00008110-000A1B2C3D4E5F60")

    @Test(.enabled(if: SharedFixtures.available, "needs ../shared/fixtures"))
    func theRealReplyWithEmptyIMEIAndMEIDIsReadAsAMac() throws {
        let bytes = [UInt8](try SharedFixtures.data("enrollment/device_reply_signed_VirtualMac2-1_22A380.p7s"))
        let reply = try DeviceEnrollmentReply(bytes: bytes)
        #expect(reply.udid.value == "78897E40-F532-5DE0-A7DC-56BAC5CEEB9C")
        #expect(reply.product == "VirtualMac2,1")
        #expect(reply.version == "22A380")
        #expect(reply.serial == "ZDL2M9PTJ3")
        #expect(reply.imei == nil, "sent as an empty string")
        #expect(reply.meid == nil, "sent as an empty string")
        #expect(reply.deviceName == nil)
        #expect(reply.challenge == "8gLEIttrT7qbLOZs3XzL5XPgNXCliGwRLtn2Lfe4GBsa7g6MGm2sJjicKrLFal4D")
        #expect(reply.signer?.issuer.commonName == "Apple iPhone Device CA")
        #expect(DeviceFamily(modelCode: try #require(reply.product)) == .mac)
    }

    @Test func emptyInformationalAttributesAreAbsent() throws {
        let reply = try DeviceEnrollmentReply(attributes: .dictionary([
            "UDID": Self.udid, "IMEI": .string(""), "MEID": .string(""), "SERIAL": .string(""), "DEVICE_NAME": .string(""),
            "PRODUCT": .string("iPad13,4"),
        ]))
        #expect(reply.imei == nil)
        #expect(reply.meid == nil)
        #expect(reply.serial == nil)
        #expect(reply.deviceName == nil)
        #expect(reply.product == "iPad13,4")
    }

    @Test func theAttributesThatMatterStayStrictWhenEmpty() {
        for key in ["PRODUCT", "VERSION"] {
            #expect(throws: DeviceEnrollmentReplyError.self, "empty \(key)") {
                try DeviceEnrollmentReply(attributes: .dictionary(["UDID": Self.udid, key: .string("")]))
            }
        }
        #expect(throws: DeviceEnrollmentReplyError.self, "an empty UDID") {
            try DeviceEnrollmentReply(attributes: .dictionary(["UDID": .string("")]))
        }
        #expect(throws: DeviceEnrollmentReplyError.wrongType(key: "IMEI", found: "an integer"), "lenient means empty, not any type") {
            try DeviceEnrollmentReply(attributes: .dictionary(["UDID": Self.udid, "IMEI": .integer(0)]))
        }
    }

    @Test func macVirtualMachinesAreMacs() {
        #expect(DeviceFamily(modelCode: "VirtualMac2,1") == .mac)
        #expect(DeviceFamily(modelCode: "VirtualMac2,") == nil)
        #expect(DeviceFamily(modelCode: "Mac14,2") == .mac)
    }
}
