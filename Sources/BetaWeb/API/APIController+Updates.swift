#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer

/// What `GET /api/v1/apps/{bundleId}/latest` answers: the newest build of an app offered to the
/// tester who asks, for the app's own "a new build is available" prompt.
struct UpdateJSON: Encodable, Sendable {
    var releaseId: Int64
    var bundleId: String
    var name: String
    var version: String?
    var build: String?
    var notes: String?
    var size: Int64?
    var date: String
    /// The release's page under the tester's link; absent when asked with an ingest key.
    var installPageURL: String?
    /// The `itms-services` link that installs it; absent when asked with an ingest key.
    var installURL: String?
}

extension APIController {
    /// Update checks: a tester's token (header `X-Tester-Token`), or an app's crash ingest key
    /// (`key`) with the tester's email or number (`tester`).
    var updateOperations: [APIOperation] {
        [
            APIOperation(
                method: .get, path: "/apps/:bundleId/latest", scope: nil, operationID: "getLatestRelease", tag: "Updates",
                summary: "The newest release of an app offered to the tester asking (and installable on their device when `udid` is given); 204 when `build` is already the newest.",
                parameters: [
                    .init(name: "build", schema: .text, description: "The build the app runs (CFBundleVersion); when no offered release is newer the answer is 204."),
                    .init(name: "udid", schema: .text, description: "The device's UDID, when the app knows it: only releases whose profile includes it are answered."),
                    .init(name: "key", schema: .text, description: "The app's crash ingest key, instead of a tester token; then `tester` is required and the answer has no links."),
                    .init(name: "tester", schema: .text, description: "With `key`: the tester's email or number."),
                ],
                outcomes: [.init(status: 200, description: "The newest offered release.", schema: .ref("Update")),
                           .init(status: 204, description: "`build` is already the newest offered release.", schema: nil)],
                security: [["testerToken": []], ["ingestKey": []]]
            ) { [self] call in try await latestRelease(call) },
        ]
    }

    /// The schemas of update checks.
    static var updateSchemas: [String: JSONSchema] {
        [
            "Update": .object([
                .required("releaseId", .integer(minimum: 1), "The release's number."),
                .required("bundleId", .text, "The app's bundle id."),
                .required("name", .text, "The app's display name."),
                .optional("version", .text, "CFBundleShortVersionString."),
                .optional("build", .text, "CFBundleVersion."),
                .optional("notes", .text, "The release notes."),
                .optional("size", .integer(minimum: 0), "The package's size in bytes."),
                .required("date", .string(description: "When it was published (ISO 8601).", format: "date-time")),
                .optional("installPageURL", .text, "The release's page under the tester's link (not with an ingest key)."),
                .optional("installURL", .text, "The itms-services link that installs it (not with an ingest key)."),
            ], description: "The newest release offered to the tester who asked."),
        ]
    }

    /// The tester-token scheme of the OpenAPI document.
    static var updateSecuritySchemes: [String: JSONValue] {
        ["testerToken": ["type": "apiKey", "in": "header", "name": "X-Tester-Token",
                         "description": "The token of the tester's page link (`<public-url>/t/<token>`)."]]
    }

    /// The current tester whose number or email (any case) is `reference`.
    static func tester(_ reference: String, in snapshot: DistributionSnapshot) -> Tester? {
        let lowered = reference.lowercased()
        for tester in snapshot.testers.values where tester.removedAt == nil {
            if String(tester.id) == reference { return tester }
            if let email = tester.email, email.lowercased() == lowered { return tester }
        }
        return nil
    }

    func latestRelease(_ call: APICall) async throws -> Response {
        let request = call.request
        let bundleID = try request.parameters.require("bundleId")
        let (snapshot, _) = try await snapshots.current()
        let tester: Tester
        var token: String?
        var credential: String
        if let header = request.headers["X-Tester-Token"], case let presented = WebActions.trimmedText(header), !presented.isEmpty {
            guard let found = snapshot.tester(token: presented) else {
                throw APIProblem(.unauthorized, "the X-Tester-Token is not a current tester's link token; take it from the tester's page URL (<public-url>/t/<token>)")
            }
            tester = found
            token = presented
            credential = "tester:\(found.id)"
        } else if let presented = request.queryValue("key"), !presented.isEmpty {
            let store = crashes.store
            guard let key = try await pool.run({ try store.activeKey(presented) }), key.bundleID == bundleID else {
                throw APIProblem(.unauthorized, "unknown or revoked ingest key for \(bundleID); create one with `betactl crash-key create \(bundleID)`")
            }
            let reference = WebActions.trimmedText(request.queryValue("tester") ?? "")
            guard !reference.isEmpty, let found = Self.tester(reference, in: snapshot) else {
                throw APIProblem(.unauthorized, "with an ingest key, `tester` must name a current tester by email or number")
            }
            tester = found
            credential = "key:\(key.id)"
        } else {
            throw APIProblem(.unauthorized, "send the tester's link token as X-Tester-Token, or the app's ingest key as `key` with `tester`")
        }
        if let wait = updateLimiter.take("\(credential)|\(request.clientAddress)") {
            let seconds = RateLimiter.retryAfterSeconds(wait)
            throw APIProblem(.tooManyRequests, "too many update checks; wait \(seconds) seconds", headers: ["Retry-After": String(seconds)])
        }
        var offered = snapshot.releases(offeredTo: tester).filter { $0.bundleID == bundleID }
        if let text = request.queryValue("udid"), let udid = try? DeviceIdentifier(text),
           snapshot.devices(of: tester).contains(where: { $0.identifier == udid && $0.status == .active }) {
            offered = offered.filter { snapshot.coverage[$0.id]?.includes(udid) != false }
        }
        guard let newest = offered.first else {
            let known = snapshot.releases.contains { $0.bundleID == bundleID }
            throw APIProblem(.notFound, known ? "no release of \(bundleID) is offered to \(tester.name) now"
                                              : "no release has the bundle id \(bundleID); check the app's CFBundleIdentifier")
        }
        if let running = request.queryValue("build"), !running.isEmpty, !BuildNumbers.isNewer(newest.build ?? "", than: running) {
            var current = Response(status: .noContent)
            current.headers.add("Vary", "X-Tester-Token")
            return current
        }
        var answer = UpdateJSON(releaseId: newest.id, bundleId: newest.bundleID, name: newest.displayName ?? newest.bundleID, version: newest.version,
                                build: newest.build, notes: newest.notes, size: snapshot.packageSizes[newest.id], date: Timestamp.string(newest.createdAt))
        if let token {
            let urls = TesterURLs(base: PublicBase(request: request, publicURL: snapshot.settings.publicURL), token: token)
            answer.installPageURL = urls.release(newest.id)
            answer.installURL = TesterURLs.installLink(manifest: urls.manifest(newest.id))
        }
        var response = try Response.api(answer)
        // Answers differ by tester: a shared cache must key them by the token too.
        response.headers.add("Vary", "X-Tester-Token")
        return response
    }
}
