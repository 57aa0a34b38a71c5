#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

/// The roster's devices with what the current ad hoc profile says about each.
struct DeviceState: Sendable {
    var devices: [Device]
    /// The pending devices, as `Roster.pendingDevices()` (and so `devices --pending`) lists them.
    var pending: [Device]
    var usage: DeviceUsage
    /// The ad hoc profile that expires last and has not expired (else the newest expired one).
    var profile: StoredProfile?
    /// Whether that profile provisions every device (it never does for ad hoc; kept for completeness).
    var provisionsAll: Bool
    /// The devices it provisions.
    var provisioned: Set<DeviceIdentifier>

    /// Whether the profile provisions an active device; nil without a profile, or for a removed device.
    func inProfile(_ device: Device) -> Bool? {
        guard profile != nil, device.status == .active else { return nil }
        return provisionsAll || provisioned.contains(device.identifier)
    }

    /// The list order: active devices first, then by tester, name and UDID.
    static func key(_ device: Device) -> PageKey {
        PageKey(number: device.status == .active ? 0 : 1,
                text: [(device.testerName ?? "").lowercased(), device.name.lowercased(), device.identifier.value].joined(separator: "\u{0}"))
    }

    func json(_ device: Device) -> RosterJSON.DeviceJSON {
        var json = RosterJSON.device(device)
        json.inProfile = inProfile(device)
        return json
    }
}
