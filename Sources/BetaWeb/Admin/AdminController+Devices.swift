import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// Devices: every device with its slot and whether the current ad hoc profile has it; add,
    /// remove, and Apple's upload file.
    func addDevicePages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/devices") { [self] call in try await devicesPage(call, failure: nil) }
        addAdminPage(&admin, "/devices/export") { [self] call in try await actions.exportDevices(call.request) }
        addAdminForm(&admin, "/devices", scope: .write) { [self] call, form in
            let home = self.home
            let now = self.now
            let back = form["back"].flatMap { $0.hasPrefix("/admin/testers/") ? $0 : nil }
            do {
                let body = NewDeviceBody(udid: form["udid"] ?? "", name: form["name"].flatMap { $0.isEmpty ? nil : $0 },
                                         model: form["model"].flatMap { $0.isEmpty ? nil : $0 },
                                         family: form["family"].flatMap { $0.isEmpty ? nil : $0 })
                let device = try body.newDevice()
                let tester = form["tester"] ?? ""
                _ = try await pool.run { try Roster(home: home.reloaded()).addDevice(device, tester: tester, now: now) }
                snapshots.invalidate()
                return Self.seeOther(back ?? "/admin/devices", notice: .deviceAdded)
            } catch {
                let failure = try WebActions.failure(error)
                if let back, let id = back.split(separator: "/").last {
                    var testerCall = call
                    testerCall.request.parameters["id"] = String(id)
                    return try await testerPage(testerCall, failure: failure)
                }
                return try await devicesPage(call, failure: failure)
            }
        }
        addDeviceRequestForms(&admin)
        addAdminForm(&admin, "/devices/:udid/remove", scope: .write) { [self] call, _ in
            let home = self.home
            let now = self.now
            do {
                let udid = try DeviceIdentifier(call.request.parameters.require("udid"))
                _ = try await pool.run { try Roster(home: home).removeDevice(udid, now: now) }
                snapshots.invalidate()
                return Self.seeOther("/admin/devices", notice: .deviceRemoved)
            } catch {
                return try await devicesPage(call, failure: try WebActions.failure(error))
            }
        }
    }

    /// `GET /admin/devices`.
    func devicesPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let state = try await actions.deviceState()
        let home = self.home
        let testers = try await pool.run { try Roster(home: home).testers() }
        var chrome = adminChrome("Devices", area: "/admin/devices", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let sorted = state.devices.sorted { DeviceState.key($0) < DeviceState.key($1) }
        let rows: [MustacheValue] = sorted.map { device in
            var row = Self.deviceRow(device)
            if case var .object(fields) = row {
                let inProfile = state.inProfile(device)
                fields["inProfile"] = .bool(inProfile == true)
                // A pending device is in no ad hoc profile by definition: its own flag says so.
                fields["notInProfile"] = .bool(inProfile == false && !device.isPending)
                row = .object(fields)
            }
            return row
        }
        let requests = try await deviceRequestsSection(call)
        return try renderAdmin("admin-devices", chrome, requests.merging([
            "devices": .list(rows), "hasDevices": .bool(!rows.isEmpty),
            "hasPending": .bool(!state.pending.isEmpty),
            "usage": .list(Self.usageBars(state.usage, all: true)),
            "renews": .string(state.usage.year.renews.description), "inferred": .bool(state.usage.year.isInferred),
            "profile": state.profile.map { ["name": .string($0.name), "uuid": .string($0.uuid)] } ?? .null,
            "testers": .list(testers.map { ["id": .string(String($0.id)), "name": .string($0.name)] }),
            "families": Self.familyOptions, "form": .object(failure == nil ? [:] : Self.formEcho(call.request)),
        ]) { _, page in page }, status: failure?.status ?? .ok)
    }

    /// Slot usage per family as bars: the used slots out of 100, the removed ones that still count
    /// drawn apart. Only families in use (and iPhone and iPad) unless `all`.
    static func usageBars(_ usage: DeviceUsage, all: Bool) -> [MustacheValue] {
        usage.families.filter { all || $0.used > 0 || $0.family == .iphone || $0.family == .ipad }.map { family in
            let active = max(0, family.used - family.removed)
            let level = family.used >= family.limit ? "full" : family.used * 10 >= family.limit * 9 ? "high" : "ok"
            return ["family": .string(family.family.displayName), "used": .int(family.used), "limit": .int(family.limit),
                    "removed": .int(family.removed), "hasRemoved": .bool(family.removed > 0),
                    "activeWidth": .int(min(active, family.limit)), "removedX": .int(min(active, family.limit)),
                    "removedWidth": .int(max(0, min(family.removed, family.limit - min(active, family.limit)))),
                    "free": .int(max(0, family.limit - family.used)), "level": .string(level),
                    "renews": .string(family.renews.description)]
        }
    }
}
