import AppleFormats
import BetaKit

/// The JSON shapes of device requests, shared by the CLI (`requests --json`, `approve-device
/// --json`, …) and the API (`/api/v1/device-requests`).
public enum DeviceRequestJSON {
    /// One open request.
    public struct RequestJSON: Encodable, Sendable {
        /// The UDID.
        public var udid: String
        /// The name of the tester whose link the device enrolled through.
        public var tester: String
        /// That tester's number.
        public var testerId: Int64
        /// `iphone`, `ipad`, `mac`, …: the slot pool it will count against.
        public var family: String
        /// The model code it reported.
        public var model: String?
        /// The OS build it reported.
        public var osBuild: String?
        /// The serial number it reported.
        public var serial: String?
        /// The name the user gave the device.
        public var deviceName: String?
        /// Whether the reply's signature chained to Apple's device CA.
        public var verified: Bool
        /// When the reply arrived (ISO 8601).
        public var requested: String
    }

    /// The approval rule.
    public struct RuleJSON: Encodable, Sendable {
        /// `off`, `all` or `group`.
        public var mode: String
        /// For `group`: the group whose testers' requests are approved.
        public var group: String?
    }

    /// The open requests and the rule.
    public struct ListJSON: Encodable, Sendable {
        /// The open requests, oldest first.
        public var requests: [RequestJSON]
        /// The approval rule in force.
        public var rule: RuleJSON
    }

    /// What approving a request did.
    public struct ApprovalJSON: Encodable, Sendable {
        /// The device as registered.
        public var device: RosterJSON.DeviceJSON
        /// True when the device already held a slot this membership year, so none was taken.
        public var reusedSlot: Bool
    }

    /// What rejecting a request did.
    public struct RejectionJSON: Encodable, Sendable {
        /// The request, now rejected.
        public var rejected: RequestJSON
    }

    /// The JSON of a request.
    public static func request(_ request: DeviceRequest) -> RequestJSON {
        RequestJSON(udid: request.udid.value, tester: request.testerName, testerId: request.testerID, family: request.family.rawValue,
                    model: request.model, osBuild: request.osBuild, serial: request.serial, deviceName: request.deviceName,
                    verified: request.verified, requested: Timestamp.string(request.requestedAt))
    }

    /// The JSON of a rule.
    public static func rule(_ rule: ApprovalRule) -> RuleJSON {
        switch rule {
        case .off: RuleJSON(mode: "off", group: nil)
        case .all: RuleJSON(mode: "all", group: nil)
        case let .group(name): RuleJSON(mode: "group", group: name)
        }
    }

    /// The JSON of the open requests and the rule.
    public static func list(_ requests: [DeviceRequest], rule: ApprovalRule) -> ListJSON {
        ListJSON(requests: requests.map(request), rule: self.rule(rule))
    }

    /// The JSON of a rejection.
    public static func rejection(_ request: DeviceRequest) -> RejectionJSON {
        RejectionJSON(rejected: self.request(request))
    }

    /// The JSON of an approval.
    public static func approval(_ addition: Roster.DeviceAddition) -> ApprovalJSON {
        ApprovalJSON(device: RosterJSON.device(addition.device), reusedSlot: addition.reusedSlot)
    }
}
