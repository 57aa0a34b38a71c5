#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

/// `POST /api/v1/testers`.
struct NewTesterBody: APIRequestBody {
    var name: String
    var email: String?
    var groups: [String]?
    var devices: [NewDeviceBody]?
    static let fields = ["name", "email", "groups", "devices"]
}

/// `PUT /api/v1/testers/{id}/groups`.
struct GroupsBody: APIRequestBody {
    var groups: [String]
    static let fields = ["groups"]
}

extension APIController {
    /// Testers: list, create, show, update groups, remove, re-issue their link.
    var testerOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/testers", scope: .read, operationID: "listTesters", tag: "Testers",
                         summary: "List current testers with their devices and private page links.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of testers.", schema: .ref("TesterList"))]) { [self] call in
                let (testers, devices, base) = try await actions.rosterState(call.request)
                let page = try Page(testers, request: call.request) { PageKey(number: $0.id) }
                let byTester = Dictionary(grouping: devices.filter { $0.status == .active }) { $0.testerID ?? -1 }
                var response = try Response.api(AdminJSON.TesterListJSON(
                    testers: page.items.map { RosterJSON.tester($0, publicURL: base, devices: byTester[$0.id] ?? []) },
                    nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .post, path: "/testers", scope: .write, operationID: "createTester", tag: "Testers",
                         summary: "Add a tester (and optionally their devices); the answer holds their private page link.",
                         body: .init(mediaType: "application/json", schema: .ref("NewTester"), description: "The tester."),
                         outcomes: [.init(status: 201, description: "The tester was added.", schema: .ref("Tester"))]) { [self] call in
                let body = try call.request.apiBody(NewTesterBody.self)
                let devices = try (body.devices ?? []).map { try $0.newDevice() }
                let request = NewTester(name: body.name, email: body.email, groups: body.groups ?? [], devices: devices)
                let home = self.home
                let now = self.now
                let tester = try await pool.run { try Roster(home: home.reloaded()).addTester(request, now: now) }
                snapshots.invalidate()
                let (_, all, base) = try await actions.rosterState(call.request)
                return try Response.api(RosterJSON.tester(tester, publicURL: base, devices: all.filter { $0.testerID == tester.id }),
                                        status: .created, location: "\(APIPaths.prefix)/testers/\(tester.id)")
            },
            APIOperation(method: .get, path: "/testers/:id", scope: .read, operationID: "getTester", tag: "Testers",
                         summary: "One tester with every device registered to them (removed ones too).",
                         outcomes: [.init(status: 200, description: "The tester.", schema: .ref("Tester"))]) { [self] call in
                let id = try Self.testerID(call.request)
                let (testers, devices, base) = try await actions.rosterState(call.request)
                guard let tester = testers.first(where: { $0.id == id }) else { throw APIProblem.roster(.testerNotFound(String(id))) }
                return try Response.api(RosterJSON.tester(tester, publicURL: base, devices: devices.filter { $0.testerID == id }))
            },
            APIOperation(method: .put, path: "/testers/:id/groups", scope: .write, operationID: "setTesterGroups", tag: "Testers",
                         summary: "Replace a tester's groups; releases for those groups appear on their page at once.",
                         body: .init(mediaType: "application/json", schema: .ref("Groups"), description: "The new groups."),
                         outcomes: [.init(status: 200, description: "The tester as changed.", schema: .ref("Tester"))]) { [self] call in
                let id = try Self.testerID(call.request)
                let body = try call.request.apiBody(GroupsBody.self)
                let home = self.home
                let tester = try await pool.run { try Roster(home: home).setGroups(String(id), groups: body.groups) }
                snapshots.invalidate()
                let (_, devices, base) = try await actions.rosterState(call.request)
                return try Response.api(RosterJSON.tester(tester, publicURL: base, devices: devices.filter { $0.testerID == id }))
            },
            APIOperation(method: .post, path: "/testers/:id/link", scope: .write, operationID: "reissueTesterLink", tag: "Testers",
                         summary: "Give a tester a new private link; the old one stops working at once.",
                         outcomes: [.init(status: 200, description: "The tester with the new link in `page`.", schema: .ref("Tester"))]) { [self] call in
                let id = try Self.testerID(call.request)
                let home = self.home
                let tester = try await pool.run { try Roster(home: home).reissueLink(String(id)) }
                snapshots.invalidate()
                let (_, devices, base) = try await actions.rosterState(call.request)
                return try Response.api(RosterJSON.tester(tester, publicURL: base, devices: devices.filter { $0.testerID == id }))
            },
            APIOperation(method: .delete, path: "/testers/:id", scope: .write, operationID: "removeTester", tag: "Testers",
                         summary: "Remove a tester and their devices (the devices keep their slots until the membership renews).",
                         outcomes: [.init(status: 204, description: "The tester was removed.")]) { [self] call in
                let id = try Self.testerID(call.request)
                let home = self.home
                let now = self.now
                _ = try await pool.run { try Roster(home: home).removeTester(String(id), now: now) }
                snapshots.invalidate()
                return Response(status: .noContent)
            },
        ]
    }

    /// The tester id in the path; anything but a number names no tester.
    static func testerID(_ request: Request) throws(APIProblem) -> Int64 {
        guard let id = try? request.parameters.require("id", as: Int64.self), id > 0 else {
            let text = request.parameters["id"] ?? ""
            throw APIProblem.roster(.testerNotFound(String(text.prefix(40))))
        }
        return id
    }
}
