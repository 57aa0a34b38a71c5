import Foundation
import Testing
import TestSupport
@testable import BetaKit
@testable import BetaServer
@testable import BetaWeb

/// `GET /api/v1/openapi.json` describes every route the server registers, every route it
/// describes answers, openapi-spec-validator accepts it as OpenAPI 3.1, and real answers
/// (successes and problems) validate against its schemas with no field left undocumented.
@Suite(.serialized) struct OpenAPITests {
    /// `GET /testers/{id}` for every operation of a document.
    static func documented(_ document: [String: Any]) throws -> Set<String> {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return Set(paths.flatMap { path, item in item.keys.map { "\($0.uppercased()) \(path)" } })
    }

    @Test func everyRegisteredAPIRouteIsDocumented() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let document = try await api(server, "GET", "/openapi.json", token: nil).object()
        let documented = try Self.documented(document)
        let app = server.app
        let registered = Set(app.router.routes.filter { $0.pattern.hasPrefix("/api/v1/") }.map { route -> String in
            let path = route.pattern.dropFirst("/api/v1".count).split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return "\(route.method.rawValue) \(path)"
        })
        #expect(registered.count >= 20)
        #expect(registered.subtracting(documented).isEmpty, "routes missing from openapi.json: \(registered.subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty, "documented but not routed: \(documented.subtracting(registered).sorted())")
        // No API route sits outside /api/v1, where the document and the problem+json errors apply,
        // but the crash SDKs' own fixed paths (HockeySDK's /api/2/apps/<key>/…, KSCrash's sink).
        let sdkPaths = ["/api/2/apps/", "/api/kscrash/"]
        let outside = app.router.routes.map(\.pattern).filter { $0.hasPrefix("/api/") && !$0.hasPrefix("/api/v1/") }
        #expect(outside.allSatisfy { path in sdkPaths.contains { path.hasPrefix($0) } }, "API routes outside /api/v1: \(outside)")
    }

    /// One call per documented operation, chosen to succeed, in an order where each finds what it needs.
    static func calls(profile: String, key: String, crashGroup: String, apple: String, tester: String, app: (String) -> String) -> [(operation: String, path: String, arguments: [String])] {
        let json = ["-H", "Content-Type: application/json", "--data-binary"]
        return [
            ("GET /testers", "/testers", []),
            ("POST /testers", "/testers", ["-H", "Content-Type: application/json", "--data-binary", #"{"name": "Zed", "groups": ["qa"]}"#]),
            ("GET /testers/{id}", "/testers/1", []),
            ("PUT /testers/{id}/groups", "/testers/1/groups", ["-H", "Content-Type: application/json", "--data-binary", #"{"groups": ["qa", "beta"]}"#]),
            ("POST /testers/{id}/link", "/testers/2/link", []),
            ("DELETE /testers/{id}", "/testers/3", []),
            ("GET /devices", "/devices", []),
            ("GET /devices/pending", "/devices/pending", []),
            ("POST /devices", "/devices", ["-H", "Content-Type: application/json", "--data-binary",
                                           #"{"tester": 1, "udid": "00008120-0000000000000F06", "model": "iPad14,3"}"#]),
            ("GET /devices/export", "/devices/export?format=tsv", []),
            ("GET /devices/{udid}", "/devices/00008030-0000000000000A01", []),
            ("DELETE /devices/{udid}", "/devices/00008120-0000000000000F06", []),
            // Two requests are planted before the calls (see `plantDeviceRequests`).
            ("GET /device-requests", "/device-requests", []),
            ("POST /device-requests/{udid}/approve", "/device-requests/00008120-0000000000000D01/approve", []),
            ("POST /device-requests/{udid}/reject", "/device-requests/00008120-0000000000000D02/reject", []),
            ("GET /profiles", "/profiles", []),
            ("POST /profiles", "/profiles", ["-H", "Content-Type: application/octet-stream", "--data-binary",
                                             "@" + LocalFixtures.url("formats/profiles/beta_development.mobileprovision").path]),
            ("GET /profiles/{uuid}", "/profiles/\(profile)", []),
            ("GET /profiles/{uuid}/check", "/profiles/\(profile)/check", []),
            ("GET /releases", "/releases", []),
            ("POST /releases", "/releases", ["-F", "ipa=@\(app("Beta.ipa"))", "-F", "again=true", "-F", "notes=docs"]),
            ("GET /releases/{id}", "/releases/1", []),
            ("POST /releases/{id}/resign", "/releases/1/resign", ["-H", "Content-Type: application/json", "--data-binary",
                                                                 #"{"profile": "\#(ResigningFixtures.profileName)"}"#]),
            ("POST /releases/{id}/revoke", "/releases/1/revoke", []),
            ("GET /symbols", "/symbols", []),
            ("GET /symbols/missing", "/symbols/missing", []),
            ("POST /symbols", "/symbols", ["-F", "dsym=@\(app("Beta.app.dSYM.zip"))"]),
            // An app's crash reporter: its ingest key, not a token.
            ("POST /crashes", "/crashes?key=\(key)&name=App-309.ips", ["-H", "Content-Type: application/octet-stream", "--data-binary",
                                                                       "@" + LocalFixtures.url("symbols/crashes/App-309.ips").path]),
            // Reading crash reports (report 1 is App-309, symbolicated; 2 a low-memory report) needs a token.
            ("GET /crashes", "/crashes?status=symbolicated", []),
            ("GET /crashes/{id}", "/crashes/1", []),
            ("GET /crashes/{id}/raw", "/crashes/1/raw", []),
            ("GET /crash-groups", "/crash-groups", []),
            ("GET /crash-groups/{signature}", "/crash-groups/\(crashGroup)", []),
            ("GET /settings", "/settings", []),
            ("PATCH /settings", "/settings", ["-H", "Content-Type: application/json", "--data-binary", #"{"brandName": "Docs"}"#]),
            ("GET /tokens", "/tokens", []),
            ("POST /tokens", "/tokens", ["-H", "Content-Type: application/json", "--data-binary", #"{"name": "temp", "scope": "read"}"#]),
            ("DELETE /tokens/{name}", "/tokens/temp", []),
            // App Store Connect, against the test server (`apple` is the key's JSON body).
            ("GET /apple", "/apple", []),
            ("PUT /apple/key", "/apple/key", json + [apple]),
            ("POST /apple/sync", "/apple/sync", []),
            ("POST /apple/register", "/apple/register", json + [#"{"approved": true}"#]),
            // The code-signing identity imported for the re-signing call is not the team's certificate at
            // Apple, so the one the team has is named.
            ("POST /apple/profiles", "/apple/profiles", json + [#"{"bundleId": "com.example.beta", "certificate": "1A2B3C4D00"}"#]),
            ("DELETE /apple/key", "/apple/key", []),
            // Provisioning: a job waiting to retry and a failed one are planted before the calls (see `plantJobs`); the
            // switch is turned off (on would need an approval rule), with a window.
            ("GET /apple/auto", "/apple/auto", []),
            ("PUT /apple/auto", "/apple/auto", json + [#"{"enabled": false, "window": 60}"#]),
            ("GET /jobs", "/jobs", []),
            ("POST /jobs/{id}/cancel", "/jobs/1/cancel", []),
            ("POST /jobs/{id}/retry", "/jobs/2/retry", []),
            // An app's update check: the tester's link token, not an API token.
            ("GET /apps/{bundleId}/latest", "/apps/com.example.beta/latest?build=0", ["-H", "X-Tester-Token: \(tester)"]),
            ("GET /webhooks", "/webhooks", []),
            ("POST /webhooks", "/webhooks", json + [#"{"url": "http://127.0.0.1:9/hook", "events": ["release.published"], "allowPrivate": true}"#]),
            ("POST /webhooks/{id}/test", "/webhooks/1/test", []),
            ("GET /webhooks/{id}/deliveries", "/webhooks/1/deliveries", []),
            ("DELETE /webhooks/{id}", "/webhooks/1", []),
            ("GET /openapi.json", "/openapi.json", []),
        ]
    }

    /// Two open requests from tester 1, as devices enrolling from their link leave them.
    static func plantDeviceRequests(home path: String) throws {
        let home = try Home.open(at: path)
        try home.store.write { db in
            for (udid, name) in [("00008120-0000000000000D01", "Docs phone"), ("00008120-0000000000000D02", "Other phone")] {
                try db.query("""
                    INSERT INTO device_requests (udid, tester_id, family, product, os_build, serial, device_name, requested_at)
                    VALUES (?, 1, 'iphone', 'iPhone15,2', '21A329', 'F2LXK0ABCD12', ?, '2026-11-10T10:00:00Z')
                    """, [.text(udid), .text(name)])
            }
        }
    }

    /// A job waiting to retry and a failed one (with its sentence), as the automatic flow leaves them.
    static func plantJobs(home path: String) throws {
        let home = try Home.open(at: path)
        try home.store.write { db in
            try db.query("""
                INSERT INTO jobs (kind, state, step, subject, payload, attempts, next_attempt_ms, last_error, created_at, updated_at, finished_at) VALUES
                ('register-device', 'waiting', 'register', '00008120-0000000000000D09', '{"udid":"00008120-0000000000000D09"}', 1, 9000000000000,
                 'App Store Connect could not be reached', '2026-11-10T10:00:00Z', '2026-11-10T10:00:00Z', NULL),
                ('refresh-apps', 'failed', 'resign', '00008120-0000000000000D08', '{"udids":["00008120-0000000000000D08"]}', 1, NULL,
                 'no code-signing identity is stored', '2026-11-10T10:00:00Z', '2026-11-10T10:01:00Z', '2026-11-10T10:01:00Z')
                """)
        }
    }

    @Test(.enabled(if: PythonOracles.isInstalled && AppStoreConnectServer.isAvailable, "needs the Python oracles (.ci/install-deps --test)"))
    func everyDocumentedOperationAnswersAndItsAnswersMatchTheSchemas() async throws {
        let fixture = try await AdminFixture.make()
        let appleServer = try AppStoreConnectServer(scenario: ["generate_devices": 4, "bundle_ids": ["com.example.beta", "com.example.beta.widget"]])
        let appleKey = try String(contentsOfFile: appleServer.key.path, encoding: .utf8)
        let apple = String(decoding: try JSONSerialization.data(withJSONObject: [
            "keyId": appleServer.key.id, "issuerId": appleServer.key.issuer, "privateKey": appleKey,
            "baseUrl": appleServer.baseURL, "caFile": appleServer.caFile,
        ]), as: UTF8.self)
        let server = try await fixture.serve()
        defer { server.stop() }
        let document = try await api(server, "GET", "/openapi.json", token: nil).object()
        let key = try #require((try cliJSON(fixture.cli, "crash-key", "create", "com.example.beta", "--json") as? [String: Any])?["key"] as? String)
        // Crash reports to read: a crash symbolicated with its dSYM, and a low-memory report.
        try await blocking {
            try fixture.cli.ok(["add-crash", LocalFixtures.url("symbols/crashes/App-309.ips").path,
                                LocalFixtures.url("inspect/ips/JetsamEvent-2024-05-06-101112.ips").path])
            try fixture.cli.ok(["add-symbols", LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path])
        }
        let crashGroup = try CrashScenario.group(fixture.cli, 1)
        try Self.plantDeviceRequests(home: fixture.cli.home)
        try Self.plantJobs(home: fixture.cli.home)
        // A code-signing identity and a profile listing it, for the re-signing call.
        let signing = try TemporaryDirectory("openapi-resign")
        try ResigningFixtures.make(in: signing)
        try fixture.cli.ok("code-identity", "import", signing.child("cert.pem"), signing.child("key.pem"))
        let profile = try #require((try cliJSON(fixture.cli, "profiles", "--json") as? [[String: Any]])?.first?["uuid"] as? String)
        try fixture.cli.ok("import-profile", signing.child("new.mobileprovision"))
        let calls = Self.calls(profile: profile, key: key, crashGroup: crashGroup, apple: apple, tester: fixture.web.annToken, app: WebFixture.app)
        #expect(Set(calls.map(\.operation)) == (try Self.documented(document)), "the table covers exactly the documented operations")
        // Each operation is called with the smallest scope its document states (none, read, write or
        // admin): an operation that needs more than it says fails here, one that needs less fails
        // APIAuthTests. One with a credential of another kind (an ingest key) carries it in its call.
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let tokens = ["read": fixture.read, "write": fixture.write, "admin": fixture.admin]
        var answers: [[String: Any]] = []
        for call in calls {
            let method = String(call.operation.prefix { $0 != " " })
            let path = String(call.operation.drop { $0 != " " }.dropFirst())
            let security = try #require(paths[path]?[method.lowercased()]?["security"] as? [[String: [String]]], "\(call.operation)")
            let token = try security.first?["bearer"].map { try #require(tokens[$0.first ?? ""], "\(call.operation): \(security)") }
            let answer = try await api(server, method, call.path, token: token, call.arguments)
            #expect(answer.status != 404 && answer.status < 300, "\(call.operation) answered \(answer.status): \(answer.text.prefix(300))")
            answers.append(["method": method, "path": call.path, "operation": String(call.operation.drop { $0 != " " }.dropFirst()),
                            "answer": ["status": answer.status, "contentType": answer.headers["content-type"] ?? "", "body": answer.text]])
        }
        // Problems are documented answers too.
        for (path, status, operation) in [("/testers/999", 404, "/testers/{id}"), ("/devices/xyz", 422, "/devices/{udid}"), ("/releases?cursor=!", 400, "/releases"),
                                          ("/crashes/999", 404, "/crashes/{id}"), ("/crashes?status=fine", 400, "/crashes"),
                                          ("/crash-groups/0123456789abcdef", 404, "/crash-groups/{signature}")] {
            let answer = try await api(server, "GET", path, token: fixture.admin)
            #expect(answer.status == status)
            answers.append(["method": "GET", "path": path, "operation": operation,
                            "answer": ["status": answer.status, "contentType": answer.headers["content-type"] ?? "", "body": answer.text]])
        }
        // And the lists as they are now, fetched by the checker itself.
        for path in ["/testers", "/devices", "/profiles", "/releases", "/symbols", "/symbols/missing", "/tokens", "/settings", "/crashes", "/crash-groups"] {
            answers.append(["method": "GET", "path": path, "operation": path])
        }
        answers.append(["method": "GET", "path": "/crashes/2", "operation": "/crashes/{id}"])
        let requests = try TemporaryDirectory("openapi")
        try JSONSerialization.data(withJSONObject: answers).write(to: URL(fileURLWithPath: requests.child("requests.json")))
        let script = Repository.root.appendingPathComponent("Tests/Clients/openapi_check.py").path
        let result = try await runTool(PythonOracles.python, [script, server.base, fixture.admin, requests.child("requests.json")], timeout: 300)
        #expect(result.status == 0, "openapi_check.py failed: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(report["valid"] as? Bool == true, "openapi-spec-validator accepts the document")
        #expect((report["checked"] as? [String])?.count == answers.count)
        #expect((report["failures"] as? [String]) == [], "answers that do not match the document: \(report["failures"] ?? "")")
        #expect(try appleServer.problems() == [], "the calls to Apple kept Apple's contract")
        withExtendedLifetime(requests) {}
    }

    @Test func theDocumentNamesTheServerEveryScopeAndTheProblemShape() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let document = try await api(server, "GET", "/openapi.json", token: nil).object()
        #expect(document["openapi"] as? String == "3.1.0")
        #expect((document["servers"] as? [[String: Any]])?.first?["url"] as? String == "\(server.base)/api/v1")
        let components = try #require(document["components"] as? [String: Any])
        let schemes = try #require(components["securitySchemes"] as? [String: [String: Any]])
        #expect(schemes["bearer"]?["scheme"] as? String == "bearer")
        let schemas = try #require(components["schemas"] as? [String: Any])
        for name in ["Tester", "Device", "DeviceList", "Release", "CreatedRelease", "Profile", "ProfileCheck", "Symbol", "Settings", "Token", "Problem"] {
            #expect(schemas[name] != nil, "\(name) is described")
        }
        // Request bodies the API refuses unknown fields of say so.
        let newTester = try #require(schemas["NewTester"] as? [String: Any])
        #expect(newTester["additionalProperties"] as? Bool == false)
        let upload = try #require(((document["paths"] as? [String: Any])?["/releases"] as? [String: Any])?["post"] as? [String: Any])
        let content = try #require((upload["requestBody"] as? [String: Any])?["content"] as? [String: Any])
        #expect(content["multipart/form-data"] != nil)
        #expect((upload["security"] as? [[String: [String]]]) == [["bearer": ["write"]]])
    }
}
