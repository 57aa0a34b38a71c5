#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import BetaJSON

/// `PATCH /api/v1/settings`: the settings to change; absent fields stay as they are.
struct SettingsBody: APIRequestBody {
    var teamId: String?
    var membershipRenewal: String?
    var publicURL: String?
    var brandName: String?
    var brandColor: String?
    static let fields = ["teamId", "membershipRenewal", "publicURL", "brandName", "brandColor"]
}

/// `POST /api/v1/tokens`.
struct NewTokenBody: APIRequestBody {
    var name: String
    var scope: String?
    static let fields = ["name", "scope"]
}

extension APIController {
    /// Settings and tokens.
    var adminOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/settings", scope: .read, operationID: "getSettings", tag: "Settings",
                         summary: "The home's settings and the membership year device slots are counted in.",
                         outcomes: [.init(status: 200, description: "The settings.", schema: .ref("Settings"))]) { [self] _ in
                let home = self.home
                let settings = try await pool.run { try home.reloaded().settings }
                return try Response.api(AdminJSON.settings(settings, now: now))
            },
            APIOperation(method: .patch, path: "/settings", scope: .admin, operationID: "updateSettings", tag: "Settings",
                         summary: "Change some settings, validated as `betactl init` validates them; pages follow at once.",
                         body: .init(mediaType: "application/json", schema: .ref("SettingsChange"), description: "The settings to change."),
                         outcomes: [.init(status: 200, description: "Every setting as it is now.", schema: .ref("Settings"))]) { [self] call in
                let body = try call.request.apiBody(SettingsBody.self)
                var renewal: CalendarDate?
                if let text = body.membershipRenewal {
                    guard let day = CalendarDate(iso: text) else { throw HomeError.invalidRenewalDate(text) }
                    renewal = day
                }
                let change = HomeSettingsChange(teamID: body.teamId, membershipRenewal: renewal, publicURL: body.publicURL,
                                                brandName: body.brandName, brandColor: body.brandColor)
                let home = self.home
                let now = self.now
                let settings = try await pool.run { try home.applySettings(change, now: now) }
                snapshots.invalidate()
                return try Response.api(AdminJSON.settings(settings, now: now))
            },
            APIOperation(method: .get, path: "/tokens", scope: .admin, operationID: "listTokens", tag: "Tokens",
                         summary: "Live API tokens (never their secrets).",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of tokens.", schema: .ref("TokenList"))]) { [self] call in
                let home = self.home
                let tokens = try await pool.run { try AccessTokens(home: home).list() }
                let page = try Page(tokens.sorted { $0.id < $1.id }, request: call.request) { PageKey(number: $0.id) }
                var response = try Response.api(AdminJSON.TokenListJSON(tokens: page.items.map(AdminJSON.token), nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .post, path: "/tokens", scope: .admin, operationID: "createToken", tag: "Tokens",
                         summary: "Create a token; its secret is in this answer only.",
                         body: .init(mediaType: "application/json", schema: .ref("NewToken"), description: "The token's name and scope (default read)."),
                         outcomes: [.init(status: 201, description: "The token and its secret.", schema: .ref("CreatedToken"))]) { [self] call in
                let body = try call.request.apiBody(NewTokenBody.self)
                let scopeName = body.scope ?? "read"
                guard let scope = TokenScope(rawValue: scopeName) else { throw AuthError.invalidScope(scopeName) }
                let home = self.home
                let now = self.now
                let created = try await pool.run { try AccessTokens(home: home).create(name: body.name, scope: scope, now: now) }
                return try Response.api(AdminJSON.CreatedTokenJSON(token: AdminJSON.token(created.token), secret: created.secret),
                                        status: .created, location: "\(APIPaths.prefix)/tokens/\(created.token.name)")
            },
            APIOperation(method: .delete, path: "/tokens/:name", scope: .admin, operationID: "revokeToken", tag: "Tokens",
                         summary: "Revoke a token: it stops working at once and its dashboard sessions end.",
                         outcomes: [.init(status: 200, description: "The token, now revoked.", schema: .ref("Token"))]) { [self] call in
                let name = try call.request.parameters.require("name")
                let home = self.home
                let now = self.now
                let token = try await pool.run { try AccessTokens(home: home).revoke(name: name, now: now) }
                return try Response.api(AdminJSON.token(token))
            },
        ]
    }
}
