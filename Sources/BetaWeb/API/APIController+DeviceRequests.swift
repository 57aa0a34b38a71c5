#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

extension APIController {
    /// Device requests: the devices that enrolled themselves and wait for approval, approving
    /// (which takes a slot under the family limit) and rejecting (which frees nothing).
    var deviceRequestOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/device-requests", scope: .admin, operationID: "listDeviceRequests", tag: "Device requests",
                         summary: "The devices that enrolled themselves from a tester's link and wait for approval (oldest first), and the approval rule. A request takes no slot.",
                         outcomes: [.init(status: 200, description: "The open requests and the rule.", schema: .ref("DeviceRequestList"))]) { [self] _ in
                let home = self.home
                let (open, rule) = try await pool.run { () throws -> ([DeviceRequest], ApprovalRule) in
                    let requests = DeviceRequests(home: home)
                    return (try requests.open(), try requests.rule())
                }
                return try Response.api(DeviceRequestJSON.list(open, rule: rule))
            },
            APIOperation(method: .post, path: "/device-requests/:udid/approve", scope: .admin, operationID: "approveDeviceRequest",
                         tag: "Device requests",
                         summary: "Approve a request: the device is registered to its tester and takes a slot of its family (409 `device-limit-reached`, naming the renewal, when all 100 are used; the request then stays open).",
                         outcomes: [.init(status: 200, description: "The device as registered.", schema: .ref("DeviceApproval"))]) { [self] call in
                let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                let home = self.home
                let now = self.now
                let addition = try await pool.run { try DeviceRequests(home: home.reloaded()).approve(udid, now: now) }
                snapshots.invalidate()
                return try Response.api(DeviceRequestJSON.approval(addition))
            },
            APIOperation(method: .post, path: "/device-requests/:udid/reject", scope: .admin, operationID: "rejectDeviceRequest",
                         tag: "Device requests",
                         summary: "Reject a request. Nothing else changes: the request held no slot.",
                         outcomes: [.init(status: 200, description: "The request, now rejected.", schema: .ref("DeviceRejection"))]) { [self] call in
                let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                let home = self.home
                let now = self.now
                let request = try await pool.run { try DeviceRequests(home: home).reject(udid, now: now) }
                return try Response.api(DeviceRequestJSON.rejection(request))
            },
        ]
    }

    /// The schemas of `DeviceRequestJSON`'s shapes.
    static var deviceRequestSchemas: [String: JSONSchema] {
        [
            "DeviceRequest": .object([
                .required("udid", .text), .required("tester", .text), .required("testerId", .integer(minimum: 1)),
                .required("family", .string(values: APISchemas.families)), .optional("model", .text), .optional("osBuild", .text),
                .optional("serial", .text), .optional("deviceName", .text),
                .required("verified", .boolean(description: "Whether the reply's signature chained to Apple's device CA (false only on a server started with `--allow-unverified-enrollment`).")),
                .required("requested", .timestamp),
            ], description: "A device that enrolled itself and waits for approval; it holds no slot."),
            "ApprovalRule": .object([
                .required("mode", .string(values: ["off", "all", "group"])),
                .optional("group", .text, "For `group`: the group whose testers' requests are approved as they arrive."),
            ]),
            "DeviceRequestList": .object([
                .required("requests", .array(.ref("DeviceRequest"))), .required("rule", .ref("ApprovalRule")),
            ]),
            "DeviceApproval": .object([
                .required("device", .ref("Device")),
                .required("reusedSlot", .boolean(description: "True when the device already held a slot this membership year, so none was taken.")),
            ]),
            "DeviceRejection": .object([.required("rejected", .ref("DeviceRequest"))]),
        ]
    }
}
