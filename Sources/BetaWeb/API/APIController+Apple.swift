#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaJSON

/// `PUT /api/v1/apple/key`: what `betactl apple connect` takes.
struct AppleKeyBody: APIRequestBody {
    var keyId: String
    var issuerId: String
    var privateKey: String
    var baseUrl: String?
    var caFile: String?
    static let fields = ["keyId", "issuerId", "privateKey", "baseUrl", "caFile"]
}

/// `POST /api/v1/apple/register`: UDIDs, or every approved device not yet registered.
struct AppleRegisterBody: APIRequestBody {
    var udids: [String]?
    var approved: Bool?
    static let fields = ["udids", "approved"]
}

/// `POST /api/v1/apple/profiles`.
struct AppleProfileBody: APIRequestBody {
    var bundleId: String
    var certificate: String?
    static let fields = ["bundleId", "certificate"]
}

extension APIController {
    /// The App Store Connect operations of `betactl apple`, admin scope. Every call to Apple runs on
    /// the blocking pool, never on an event loop.
    var appleOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/apple", scope: .admin, operationID: "getAppleStatus", tag: "App Store Connect",
                         summary: "The connected key, the team, the last sync and the device counts (`apple status`); no call to Apple.",
                         outcomes: [.init(status: 200, description: "The state.", schema: .ref("AppleStatus"))]) { [self] _ in
                let home = self.home, now = self.now
                return try Response.api(AppleJSON.status(try await pool.run { try AppleAccount(home: home).status(now: now) }))
            },
            APIOperation(method: .put, path: "/apple/key", scope: .admin, operationID: "connectApple", tag: "App Store Connect",
                         summary: "Store an App Store Connect key after checking it with one call (`apple connect`).",
                         body: .init(mediaType: "application/json", schema: .ref("AppleKey"), description: "The key and its ids."),
                         outcomes: [.init(status: 200, description: "The state, connected.", schema: .ref("AppleStatus"))]) { [self] call in
                let body = try call.request.apiBody(AppleKeyBody.self)
                let key = try AppStoreConnectKey(pem: Array(body.privateKey.utf8), path: "privateKey", keyID: body.keyId, issuerID: body.issuerId)
                let home = self.home, now = self.now
                let status = try await pool.run {
                    let connection = try AppStoreConnectConnection(key: key, baseURL: body.baseUrl, caFile: body.caFile, connectedAt: now)
                    _ = try AppleAccount(home: home).connect(connection)
                    return try AppleAccount(home: home).status(now: now)
                }
                return try Response.api(AppleJSON.status(status))
            },
            APIOperation(method: .delete, path: "/apple/key", scope: .admin, operationID: "disconnectApple", tag: "App Store Connect",
                         summary: "Remove the stored key (`apple disconnect`); nothing at Apple changes.",
                         outcomes: [.init(status: 200, description: "The state, disconnected.", schema: .ref("AppleStatus"))]) { [self] _ in
                let home = self.home, now = self.now
                let status = try await pool.run {
                    guard try AppleAccount(home: home).disconnect() else { throw AppStoreConnectError.notConnected }
                    return try AppleAccount(home: home).status(now: now)
                }
                return try Response.api(AppleJSON.status(status))
            },
            APIOperation(method: .post, path: "/apple/sync", scope: .admin, operationID: "syncApple", tag: "App Store Connect",
                         summary: "Read Apple's device list and reconcile the roster and the slot ledger with it (`apple sync`).",
                         outcomes: [.init(status: 200, description: "What the sync found.", schema: .ref("AppleSync"))]) { [self] _ in
                let home = self.home, now = self.now
                let result = try await pool.run {
                    let account = AppleAccount(home: home)
                    return try account.sync(client: try account.client(), now: now)
                }
                snapshots.invalidate()
                return try Response.api(AppleJSON.sync(result))
            },
            APIOperation(method: .post, path: "/apple/register", scope: .admin, operationID: "registerAppleDevices", tag: "App Store Connect",
                         summary: "Register roster devices at Apple (`apple register`); `approved` takes every one not yet registered.",
                         body: .init(mediaType: "application/json", schema: .ref("AppleRegister"), description: "UDIDs, or approved: true."),
                         outcomes: [.init(status: 200, description: "Each device's outcome.", schema: .ref("AppleRegistration"))]) { [self] call in
                let body = try call.request.apiBody(AppleRegisterBody.self)
                let udids = try (body.udids ?? []).map { try DeviceIdentifier($0) }
                guard (body.approved == true) != !udids.isEmpty else {
                    throw APIProblem(.invalidInput, "give either udids or approved: true (every device not yet registered at Apple), not both and not neither")
                }
                let home = self.home, now = self.now
                let result = try await pool.run {
                    let account = AppleAccount(home: home)
                    let wanted = body.approved == true ? try account.approvedUnregistered().map(\.identifier) : udids
                    return try account.register(wanted, client: try account.client(), now: now)
                }
                snapshots.invalidate()
                return try Response.api(AppleJSON.register(result))
            },
            APIOperation(method: .post, path: "/apple/profiles", scope: .admin, operationID: "regenerateAppleProfiles", tag: "App Store Connect",
                         summary: "Regenerate the app's ad hoc profiles (and its extensions') with every enabled device, and import them (`apple profile`).",
                         body: .init(mediaType: "application/json", schema: .ref("AppleProfileRequest"), description: "The app's bundle id."),
                         outcomes: [.init(status: 200, description: "The profiles made.", schema: .ref("AppleProfiles"))]) { [self] call in
                let body = try call.request.apiBody(AppleProfileBody.self)
                let home = self.home, now = self.now
                let result = try await pool.run {
                    let account = AppleAccount(home: home)
                    return try account.regenerateProfiles(for: body.bundleId, certificate: body.certificate, client: try account.client(), now: now)
                }
                snapshots.invalidate()
                return try Response.api(AppleJSON.profiles(result))
            },
        ]
    }

    /// The schemas of the App Store Connect operations.
    static var appleSchemas: [String: JSONSchema] {
        let ledger: JSONSchema = .object([
            .required("family", .string(values: APISchemas.families)), .required("apple", .integer(minimum: 0)),
            .required("roster", .integer(minimum: 0)), .required("difference", .integer()),
            .optional("explanation", .text, "Why Apple's count and the roster's differ; absent when they agree."),
        ])
        return [
            "AppleStatus": .object([
                .required("connected", .boolean()), .optional("keyId", .text), .optional("issuerId", .text), .optional("teamId", .text),
                .optional("baseUrl", .string(format: "uri")), .optional("connectedAt", .timestamp), .optional("lastSync", .timestamp),
                .optional("rateLimit", .text, "Apple's last X-Rate-Limit header."),
                .required("appleDevices", .integer(minimum: 0)), .required("appleDisabled", .integer(minimum: 0)),
                .required("registered", .integer(minimum: 0)), .required("disabled", .integer(minimum: 0)), .required("pending", .integer(minimum: 0)),
                .required("ledger", .array(ledger)),
            ]),
            "AppleSync": .object([
                .required("appleDevices", .integer(minimum: 0)), .required("appleDisabled", .integer(minimum: 0)),
                .required("imported", .array(.text)), .required("registered", .integer(minimum: 0)),
                .required("disabled", .integer(minimum: 0)), .required("pending", .integer(minimum: 0)),
                .required("calls", .integer(minimum: 0)), .required("ledger", .array(ledger)),
            ]),
            "AppleRegistration": .object([
                .required("devices", .array(.object([
                    .required("udid", .text), .required("name", .text),
                    .required("result", .string(values: ["registered", "already-registered", "refused"])), .optional("reason", .text),
                ]))),
                .required("registered", .integer(minimum: 0)), .required("alreadyRegistered", .integer(minimum: 0)),
                .required("refused", .integer(minimum: 0)), .required("calls", .integer(minimum: 0)),
            ]),
            "AppleProfiles": .object([
                .required("bundleId", .text), .required("certificateSerial", .text),
                .required("profiles", .array(.object([
                    .required("bundleId", .text), .required("name", .text), .required("uuid", .text), .required("devices", .integer(minimum: 0)),
                    .optional("replaced", .text, "The profile betactl made before, deleted."),
                ]))),
                .required("calls", .integer(minimum: 0)),
            ]),
            "AppleKey": .object([
                .required("keyId", .text), .required("issuerId", .text),
                .required("privateKey", .string(description: "The AuthKey_….p8 file's text (PKCS #8 PEM, P-256).")),
                .optional("baseUrl", .string(description: "Another API base URL, for a test server.", format: "uri")),
                .optional("caFile", .string(description: "A PEM CA file on the server to trust instead of the system's, for a test server.")),
            ], additional: .never),
            "AppleRegister": .object([.optional("udids", .array(.text)), .optional("approved", .boolean())], additional: .never),
            "AppleProfileRequest": .object([.required("bundleId", .text), .optional("certificate", .text)], additional: .never),
        ]
    }
}
