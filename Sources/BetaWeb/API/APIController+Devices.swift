#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

/// A device in `POST /api/v1/testers`.
struct NewDeviceBody: APIRequestBody {
    var udid: String
    var name: String?
    var model: String?
    var family: String?
    static let fields = ["udid", "name", "model", "family"]

    /// The roster request: the family from the model code or `family`, as `add-device` decides it.
    func newDevice() throws -> NewDevice {
        let identifier = try DeviceIdentifier(udid)
        let named = try family.map { name throws(RosterError) in
            guard let family = DeviceFamily(name: name) else { throw RosterError.unknownFamily(name) }
            return family
        }
        let resolved = try NewDevice.family(model: model, family: named, identifier: identifier)
        return NewDevice(identifier: identifier, name: name ?? "", family: resolved, model: model)
    }
}

/// `POST /api/v1/devices`: a device and the tester it belongs to (id, email or exact name).
struct AddDeviceBody: APIRequestBody {
    var tester: String
    var device: NewDeviceBody
    static let fields = ["tester", "udid", "name", "model", "family"]

    enum Keys: String, CodingKey { case tester }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        // A tester id may come as a number or as text.
        if let id = try? container.decode(Int64.self, forKey: .tester) {
            tester = String(id)
        } else {
            tester = try container.decode(String.self, forKey: .tester)
        }
        device = try NewDeviceBody(from: decoder)
    }
}

extension APIController {
    /// Devices: list with slot usage, the pending ones, add, show, remove, export in Apple's formats.
    var deviceOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/devices", scope: .read, operationID: "listDevices", tag: "Devices",
                         summary: "Every device ever registered (active first), the slot usage of each family this membership year, and whether the current ad hoc profile has each device.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of devices with the usage of every family.", schema: .ref("DeviceList"))]) { [self] call in
                let state = try await actions.deviceState()
                return try devicePage(state.devices, state: state, request: call.request)
            },
            APIOperation(method: .get, path: "/devices/pending", scope: .read, operationID: "listPendingDevices", tag: "Devices",
                         summary: "The devices testers registered from the device itself that no ad hoc profile betactl has seen includes yet (what `betactl devices --pending` lists): register them with Apple (`/devices/export?devices=pending`), regenerate the profile and import it.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of pending devices with the usage of every family.", schema: .ref("DeviceList"))]) { [self] call in
                let state = try await actions.deviceState()
                return try devicePage(state.pending, state: state, request: call.request)
            },
            APIOperation(method: .post, path: "/devices", scope: .write, operationID: "addDevice", tag: "Devices",
                         summary: "Register a tester's device; it takes a slot of its family for the membership year (409 `device-limit-reached` when all 100 are used).",
                         body: .init(mediaType: "application/json", schema: .ref("NewDevice"), description: "The device and its tester."),
                         outcomes: [.init(status: 201, description: "The device was registered.", schema: .ref("Device"))]) { [self] call in
                let body = try call.request.apiBody(AddDeviceBody.self)
                let device = try body.device.newDevice()
                let home = self.home
                let now = self.now
                let addition = try await pool.run { try Roster(home: home.reloaded()).addDevice(device, tester: body.tester, now: now) }
                snapshots.invalidate()
                let state = try await actions.deviceState()
                return try Response.api(state.json(addition.device), status: .created,
                                        location: "\(APIPaths.prefix)/devices/\(addition.device.identifier.value)")
            },
            APIOperation(method: .get, path: "/devices/export", scope: .read, operationID: "exportDevices", tag: "Devices",
                         summary: "Apple's \"Register Multiple Devices\" upload file of the active devices (or only the pending ones, or those the current ad hoc profile lacks).",
                         parameters: [
                            .init(name: "format", schema: .string(values: ["tsv", "deviceids"]), description: "`tsv` (default) or `deviceids` (a property list)."),
                            .init(name: "devices", schema: .string(values: ["active", "pending", "not-in-profile"]),
                                  description: "`active` (default); `pending`: only the devices testers registered themselves that no ad hoc profile includes yet (`betactl export-devices --pending`); `not-in-profile`: only active devices the current ad hoc profile lacks."),
                         ],
                         outcomes: [
                            .init(status: 200, description: "The upload file, as an attachment.", schema: .string(), mediaType: "text/tab-separated-values"),
                         ]) { [self] call in
                try await actions.exportDevices(call.request)
            },
            APIOperation(method: .get, path: "/devices/:udid", scope: .read, operationID: "getDevice", tag: "Devices",
                         summary: "One device.",
                         outcomes: [.init(status: 200, description: "The device.", schema: .ref("Device"))]) { [self] call in
                let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                let state = try await actions.deviceState()
                guard let device = state.devices.first(where: { $0.identifier == udid }) else { throw APIProblem.roster(.deviceNotFound(udid)) }
                return try Response.api(state.json(device))
            },
            APIOperation(method: .delete, path: "/devices/:udid", scope: .write, operationID: "removeDevice", tag: "Devices",
                         summary: "Remove a device; its slot stays used until the membership renews.",
                         outcomes: [.init(status: 200, description: "The device, now removed.", schema: .ref("Device"))]) { [self] call in
                let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                let home = self.home
                let now = self.now
                let device = try await pool.run { try Roster(home: home).removeDevice(udid, now: now) }
                snapshots.invalidate()
                return try Response.api(try await actions.deviceState().json(device))
            },
        ]
    }

    /// A page of `devices` in the list order, with the slot usage and the profile `inProfile` was checked against.
    func devicePage(_ devices: [Device], state: DeviceState, request: Request) throws -> Response {
        let sorted = devices.sorted { DeviceState.key($0) < DeviceState.key($1) }
        let page = try Page(sorted, request: request, key: DeviceState.key)
        let base = RosterJSON.devices(page.items, usage: state.usage)
        var response = try Response.api(AdminJSON.DeviceListJSON(
            devices: page.items.map(state.json), usage: base.usage, membershipYear: base.membershipYear,
            profile: state.profile.map(ArchiveJSON.profile), nextCursor: page.nextCursor))
        if let link = page.linkHeader(request) { response.headers.set("Link", link) }
        return response
    }
}
