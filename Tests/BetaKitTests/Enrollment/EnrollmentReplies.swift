import AppleFormats
import Foundation
@testable import BetaKit
import TestSupport

/// Device replies made the way a device makes them: an attribute plist signed with
/// `openssl cms -sign -nodetach -outform DER` by a device certificate.
struct EnrollmentReplies {
    let directory: TemporaryDirectory
    let device: (certificate: String, key: String)

    static func make() async throws -> EnrollmentReplies {
        let directory = try TemporaryDirectory("replies")
        return EnrollmentReplies(directory: directory, device: try await OpenSSLTool.makeDeviceIdentity(in: directory))
    }

    func reply(udid: String = "00008120-001A2B3C4D5E6F70", product: String? = "iPhone15,2", deviceName: String? = "Ann's iPhone",
               imei: String? = "35 123456 789012 3", ber: Bool = false, challenge: String?) async throws -> [UInt8] {
        let plist = OpenSSLTool.deviceReplyPlist(udid: udid, product: product, deviceName: deviceName, imei: imei, challenge: challenge)
        return try await OpenSSLTool.signDER(plist, certificate: device.certificate, key: device.key, ber: ber, in: directory)
    }
}
