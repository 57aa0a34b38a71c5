import AppleFormats
import Foundation
@testable import BetaKit
import TestSupport

/// Generated formats fixtures (Tests/Fixtures/formats) loaded for BetaKit tests.
enum FormatsFixtures {
    static func profile(_ name: String) throws -> ProvisioningProfile {
        try ProvisioningProfile(bytes: [UInt8](LocalFixtures.data("formats/profiles/\(name).mobileprovision")))
    }

    static func device(_ udid: String, tester: String?, removed: Bool = false) throws -> Device {
        Device(identifier: try DeviceIdentifier(udid), name: "", family: .iphone, model: nil, testerID: nil, testerName: tester,
               addedAt: Date(timeIntervalSince1970: 1_700_000_000), removedAt: removed ? Date(timeIntervalSince1970: 1_710_000_000) : nil)
    }

    /// The three made-up devices that every generated ad hoc profile includes.
    static let profileDevices = ["00008030-0000000000000A01", "00008101-0000000000000B02", "0000000000000000000000000000000000000c03"]

    static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15
}
