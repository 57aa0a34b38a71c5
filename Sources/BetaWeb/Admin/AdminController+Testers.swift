#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// Testers: list and add; one tester with their link, its QR code, groups, devices, a new link, removal.
    func addTesterPages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/testers") { [self] call in try await testersPage(call, failure: nil) }
        addAdminForm(&admin, "/testers", scope: .write) { [self] call, form in
            let groups = WebActions.groupList(form["groups"] ?? "")
            let request = NewTester(name: form["name"] ?? "", email: (form["email"] ?? "").isEmpty ? nil : form["email"], groups: groups)
            let home = self.home
            let now = self.now
            do {
                let tester = try await pool.run { try Roster(home: home.reloaded()).addTester(request, now: now) }
                snapshots.invalidate()
                return Self.seeOther("/admin/testers/\(tester.id)", notice: .testerAdded)
            } catch {
                return try await testersPage(call, failure: try WebActions.failure(error))
            }
        }
        addAdminPage(&admin, "/testers/:id") { [self] call in try await testerPage(call, failure: nil) }
        addAdminForm(&admin, "/testers/:id/groups", scope: .write) { [self] call, form in
            try await testerAction(call, notice: .groupsSaved) { roster, id in _ = try roster.setGroups(id, groups: WebActions.groupList(form["groups"] ?? "")) }
        }
        addAdminForm(&admin, "/testers/:id/link", scope: .write) { [self] call, _ in
            try await testerAction(call, notice: .linkReissued) { roster, id in _ = try roster.reissueLink(id) }
        }
        addAdminForm(&admin, "/testers/:id/remove", scope: .write) { [self] call, _ in
            let now = self.now
            let response = try await testerAction(call, notice: .testerRemoved) { roster, id in _ = try roster.removeTester(id, now: now) }
            return response.status.code == 303 ? Self.seeOther("/admin/testers", notice: .testerRemoved) : response
        }
    }

    /// Runs a change to the tester in the path, then returns to their page (or shows it with the error).
    func testerAction(_ call: AdminRequest, notice: AdminNotice,
                      _ change: @escaping @Sendable (Roster, String) throws -> Void) async throws -> Response {
        let id = try call.request.parameters.require("id", as: Int64.self)
        let home = self.home
        do {
            try await pool.run { try change(Roster(home: home.reloaded()), String(id)) }
            snapshots.invalidate()
            return Self.seeOther("/admin/testers/\(id)", notice: notice)
        } catch {
            return try await testerPage(call, failure: try WebActions.failure(error))
        }
    }

    /// `GET /admin/testers`.
    func testersPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let (testers, devices, base) = try await actions.rosterState(call.request)
        let counts = Dictionary(grouping: devices.filter { $0.status == .active }.compactMap(\.testerID), by: { $0 }).mapValues(\.count)
        var chrome = adminChrome("Testers", area: "/admin/testers", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let rows: [MustacheValue] = testers.map { tester in
            ["id": .string(String(tester.id)), "name": .string(tester.name), "email": tester.email.map(MustacheValue.string) ?? .null,
             "groups": .string(tester.groups.joined(separator: ", ")), "devices": .int(counts[tester.id] ?? 0),
             "link": .string(TesterURLs(base: PublicBase(url: base), token: tester.token).page)]
        }
        let form = failure == nil ? [:] : Self.formEcho(call.request)
        return try renderAdmin("admin-testers", chrome, ["testers": .list(rows), "hasTesters": .bool(!rows.isEmpty), "form": .object(form)],
                               status: failure?.status ?? .ok)
    }

    /// `GET /admin/testers/<id>`.
    func testerPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let id = try call.request.parameters.require("id", as: Int64.self)
        let (testers, devices, base) = try await actions.rosterState(call.request)
        guard let tester = testers.first(where: { $0.id == id }) else { throw WebError.notFound }
        let urls = TesterURLs(base: PublicBase(url: base), token: tester.token)
        var chrome = adminChrome(tester.name, area: "/admin/testers", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let owned = devices.filter { $0.testerID == id }
        return try renderAdmin("admin-tester", chrome, [
            "id": .string(String(id)), "name": .string(tester.name), "email": tester.email.map(MustacheValue.string) ?? .null,
            "groups": .string(tester.groups.joined(separator: ", ")), "link": .string(urls.page),
            "qr": .string("/t/\(tester.token)/qr.svg"), "added": .string(CalendarDate(tester.createdAt).description),
            "devices": .list(owned.map(Self.deviceRow)), "hasDevices": .bool(!owned.isEmpty),
            "families": Self.familyOptions,
        ], status: failure?.status ?? .ok)
    }

    /// A device as the dashboard's tables show it.
    static func deviceRow(_ device: Device) -> MustacheValue {
        ["udid": .string(device.identifier.value), "name": .string(device.name), "family": .string(device.family.displayName),
         "model": device.model.map(MustacheValue.string) ?? .null, "tester": device.testerName.map(MustacheValue.string) ?? .null,
         "testerId": device.testerID.map { .string(String($0)) } ?? .null,
         "modelName": .string(device.model.map(DeviceModelName.displayName(forModelCode:)) ?? device.family.displayName),
         "active": .bool(device.status == .active), "pending": .bool(device.isPending),
         "added": .string(CalendarDate(device.addedAt).description),
         "removed": device.removedAt.map { .string(CalendarDate($0).description) } ?? .null]
    }

    /// The families a device form offers.
    static var familyOptions: MustacheValue {
        .list(DeviceFamily.allCases.map { ["value": .string($0.rawValue), "label": .string($0.displayName)] })
    }

    /// The fields a failed form sent, to fill the form again (text fields only, never files or the token).
    static func formEcho(_ request: Request) -> [String: MustacheValue] {
        guard let form = try? URLEncodedForm(body: request.body) else { return [:] }
        var echo: [String: MustacheValue] = [:]
        for field in form.fields where field.name != "csrf" && field.name != "token" { echo[field.name] = .string(field.value) }
        return echo
    }
}
