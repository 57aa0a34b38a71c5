import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// The device page's requests: approve (the device takes a slot) or reject (nothing is freed,
    /// nothing was taken). Admin scope, like the API's, behind the dashboard's CSRF guard.
    func addDeviceRequestForms(_ admin: inout RouteGroup) {
        for (action, approving) in [("approve", true), ("reject", false)] {
            addAdminForm(&admin, "/devices/requests/:udid/\(action)", scope: .admin) { [self] call, _ in
                let home = self.home
                let now = self.now
                do {
                    let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                    if approving {
                        _ = try await pool.run { try DeviceRequests(home: home.reloaded()).approve(udid, now: now) }
                        snapshots.invalidate()
                        return Self.seeOther("/admin/devices", notice: .requestApproved)
                    }
                    _ = try await pool.run { try DeviceRequests(home: home).reject(udid, now: now) }
                    return Self.seeOther("/admin/devices", notice: .requestRejected)
                } catch {
                    return try await devicesPage(call, failure: try WebActions.failure(error))
                }
            }
        }
    }

    /// The open requests and the rule, as the device page shows them.
    func deviceRequestsSection(_ call: AdminRequest) async throws -> [String: MustacheValue] {
        let home = self.home
        let (open, rule) = try await pool.run { () throws -> ([DeviceRequest], ApprovalRule) in
            let requests = DeviceRequests(home: home)
            return (try requests.open(), try requests.rule())
        }
        let rows: [MustacheValue] = open.map { request in
            ["udid": .string(request.udid.value), "tester": .string(request.testerName), "testerId": .string(String(request.testerID)),
             "name": request.deviceName.map(MustacheValue.string) ?? .null,
             "model": .string(request.model.map(DeviceModelName.displayName(forModelCode:)) ?? request.family.displayName),
             "serial": request.serial.map(MustacheValue.string) ?? .null, "unverified": .bool(!request.verified),
             "requested": .string(CalendarDate(request.requestedAt).description)]
        }
        return ["requests": .list(rows), "hasRequests": .bool(!rows.isEmpty), "approvalRule": .string(rule.description),
                "canDecide": .bool(call.session.token.scope.allows(.admin))]
    }
}
