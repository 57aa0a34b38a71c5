#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A device that enrolled itself and waits for the admin: it takes no slot until it is approved.
public struct DeviceRequest: Sendable, Equatable {
    /// The device's UDID.
    public var udid: DeviceIdentifier
    /// The tester whose link the device enrolled through.
    public var testerID: Int64
    /// That tester's name, for display.
    public var testerName: String
    /// The device's family (the slot pool it will count against once approved).
    public var family: DeviceFamily
    /// The model code it reported (`iPhone15,2`, `VirtualMac2,1`).
    public var model: String?
    /// The OS build it reported.
    public var osBuild: String?
    /// The serial number it reported.
    public var serial: String?
    /// The IMEI it reported, if any.
    public var imei: String?
    /// The name the user gave the device, if it reported one.
    public var deviceName: String?
    /// Whether the reply's signature chained to Apple's device CA (false only for replies a server
    /// started with `--allow-unverified-enrollment` took in).
    public var verified: Bool
    /// When the reply arrived.
    public var requestedAt: Date
}

/// Which requests are approved without the admin (`approval-rule set`).
public enum ApprovalRule: Sendable, Equatable, CustomStringConvertible {
    /// Every request waits for the admin (the default).
    case off
    /// Every request is approved as it arrives.
    case all
    /// Requests from testers in this group are approved as they arrive.
    case group(String)

    /// Whether a request from `tester` is approved by the rule.
    public func approves(_ tester: Tester) -> Bool {
        switch self {
        case .off: false
        case .all: true
        case let .group(name): tester.groups.contains(name)
        }
    }

    /// The rule in words, for the CLI and the dashboard.
    public var description: String {
        switch self {
        case .off: "off: every request waits for approval"
        case .all: "all: every request is approved as it arrives"
        case let .group(name): "group \(name): requests from testers in group \(name) are approved as they arrive; others wait"
        }
    }
}
