import AppleFormats
import BetaKit

/// JSON shapes printed by the roster commands. Field names are part of betactl's interface.
enum RosterJSON {
    struct TesterJSON: Encodable {
        var id: Int64
        var name: String
        var email: String?
        var groups: [String]
        var page: String
        var created: String
        var devices: [DeviceJSON]?
    }

    struct DeviceJSON: Encodable {
        var udid: String
        var name: String
        var family: String
        var model: String?
        var tester: String?
        var testerId: Int64?
        var status: String
        var added: String
        var removed: String?
    }

    struct UsageJSON: Encodable {
        var used: Int
        var limit: Int
        var removed: Int
        var renews: String
    }

    struct DevicesJSON: Encodable {
        var devices: [DeviceJSON]
        var usage: [String: UsageJSON]
        var membershipYear: MembershipYearJSON
    }

    struct MembershipYearJSON: Encodable {
        var start: String
        var renews: String
        var inferredFromInit: Bool
    }

    static func tester(_ tester: Tester, publicURL: String, devices: [Device]? = nil) -> TesterJSON {
        TesterJSON(id: tester.id, name: tester.name, email: tester.email, groups: tester.groups,
                   page: tester.pageURL(publicURL: publicURL), created: Timestamp.string(tester.createdAt),
                   devices: devices?.map(device))
    }

    static func device(_ device: Device) -> DeviceJSON {
        DeviceJSON(udid: device.identifier.value, name: device.name, family: device.family.rawValue, model: device.model,
                   tester: device.testerName, testerId: device.testerID, status: device.status.rawValue,
                   added: Timestamp.string(device.addedAt), removed: device.removedAt.map(Timestamp.string))
    }
}
