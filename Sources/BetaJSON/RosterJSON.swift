import AppleFormats
import BetaKit

/// JSON shapes of testers, devices and slot usage, printed by the CLI's `--json` and answered by the
/// API. Field names are part of betactl's interface: add fields, never rename them.
public enum RosterJSON {
    /// A tester.
    public struct TesterJSON: Encodable, Sendable {
        /// The tester's number.
        public var id: Int64
        /// The tester's name.
        public var name: String
        /// The tester's email.
        public var email: String?
        /// The groups the tester is in.
        public var groups: [String]
        /// The tester's private page: `<public-url>/t/<token>`.
        public var page: String
        /// When the tester was added (ISO 8601).
        public var created: String
        /// The tester's devices (in `show-tester`).
        public var devices: [DeviceJSON]?
    }

    /// A registered device.
    public struct DeviceJSON: Encodable, Sendable {
        /// The UDID.
        public var udid: String
        /// The device's name.
        public var name: String
        /// `iphone`, `ipad`, `ipod`, `watch`, `tv`, `mac` or `vision`.
        public var family: String
        /// The model code, e.g. `iPhone15,2`.
        public var model: String?
        /// The owner's name.
        public var tester: String?
        /// The owner's number.
        public var testerId: Int64?
        /// `active` or `removed`.
        public var status: String
        /// When it was added (ISO 8601).
        public var added: String
        /// When it was removed (ISO 8601).
        public var removed: String?
        /// True when the tester registered it from the device and no ad hoc profile includes it yet.
        public var pending: Bool = false
        /// Whether the current ad hoc profile provisions it (API device lists; absent elsewhere).
        public var inProfile: Bool? = nil
    }

    /// Slot usage of one family.
    public struct UsageJSON: Encodable, Sendable {
        /// Slots taken this membership year.
        public var used: Int
        /// Apple's limit (100).
        public var limit: Int
        /// Removed devices that still hold a slot.
        public var removed: Int
        /// When removed devices' slots come back (YYYY-MM-DD).
        public var renews: String
    }

    /// What `devices --json` prints.
    public struct DevicesJSON: Encodable, Sendable {
        /// Every device.
        public var devices: [DeviceJSON]
        /// Usage by family.
        public var usage: [String: UsageJSON]
        /// The membership year counted.
        public var membershipYear: MembershipYearJSON
    }

    /// A membership year.
    public struct MembershipYearJSON: Encodable, Sendable {
        /// Its first day (YYYY-MM-DD).
        public var start: String
        /// The day it renews (YYYY-MM-DD).
        public var renews: String
        /// True when no renewal date was set and the anniversary of `init` is used.
        public var inferredFromInit: Bool
    }

    /// The JSON of a tester, with their devices when given.
    public static func tester(_ tester: Tester, publicURL: String, devices: [Device]? = nil) -> TesterJSON {
        TesterJSON(id: tester.id, name: tester.name, email: tester.email, groups: tester.groups,
                   page: tester.pageURL(publicURL: publicURL), created: Timestamp.string(tester.createdAt),
                   devices: devices?.map(device))
    }

    /// The JSON of every device with the slot usage of the membership year.
    public static func devices(_ devices: [Device], usage: DeviceUsage) -> DevicesJSON {
        var families: [String: UsageJSON] = [:]
        for family in usage.families {
            families[family.family.rawValue] = UsageJSON(used: family.used, limit: family.limit, removed: family.removed,
                                                         renews: family.renews.description)
        }
        return DevicesJSON(devices: devices.map(device), usage: families,
                           membershipYear: MembershipYearJSON(start: usage.year.start.description, renews: usage.year.renews.description,
                                                              inferredFromInit: usage.year.isInferred))
    }

    /// The JSON of a device.
    public static func device(_ device: Device) -> DeviceJSON {
        DeviceJSON(udid: device.identifier.value, name: device.name, family: device.family.rawValue, model: device.model,
                   tester: device.testerName, testerId: device.testerID, status: device.status.rawValue,
                   added: Timestamp.string(device.addedAt), removed: device.removedAt.map(Timestamp.string), pending: device.isPending)
    }
}
