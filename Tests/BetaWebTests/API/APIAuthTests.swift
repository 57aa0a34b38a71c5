import Foundation
import Testing
import TestSupport

/// Every operation the OpenAPI document lists, called by a real client: 401 without a token (or
/// with an unknown one), 403 with a token whose scope is too small, and nothing changed by either.
@Suite(.serialized) struct APIAuthTests {
    /// The document's operations: path, method and the scope its bearer requirement names ("" when
    /// it needs no credential, nil when it takes another kind, which its own tests cover).
    static func operations(_ server: any WebEndpoint) async throws -> [(path: String, method: String, scope: String?)] {
        let document = try await api(server, "GET", "/openapi.json", token: nil).object()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var result: [(String, String, String?)] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, value) in item.sorted(by: { $0.key < $1.key }) {
                let operation = try #require(value as? [String: Any])
                let security = try #require(operation["security"] as? [[String: [String]]], "\(method) \(path) states its security")
                let scope = security.isEmpty ? "" : security.first?["bearer"]?.first
                result.append((path, method.uppercased(), scope))
            }
        }
        return result
    }

    static func concrete(_ path: String, profile: String) -> String {
        path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{udid}", with: "00008030-0000000000000A01")
            .replacingOccurrences(of: "{uuid}", with: profile).replacingOccurrences(of: "{name}", with: "reader")
            .replacingOccurrences(of: "{signature}", with: "0123456789abcdef")
    }

    @Test func everyOperationNeedsATokenAndTheRightScope() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let profile = try #require((try cliJSON(fixture.cli, "profiles", "--json") as? [[String: Any]])?.first?["uuid"] as? String)
        let operations = try await Self.operations(server)
        #expect(operations.count >= 20, "the document lists every operation")
        let ranks = ["read": 0, "write": 1, "admin": 2]
        for operation in operations {
            let path = Self.concrete(operation.path, profile: profile)
            guard let scope = operation.scope else { continue }
            if scope.isEmpty {
                let open = try await api(server, operation.method, path, token: nil)
                #expect(open.status == 200, "\(operation.method) \(path) needs no token")
                continue
            }
            let label = "\(operation.method) \(path)"
            let anonymous = try await api(server, operation.method, path, token: nil)
            try anonymous.problem(401, "unauthorized")
            #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Bearer realm=\"betactl\"") == true, "\(label)")
            let forged = try await api(server, operation.method, path, token: "bct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            try forged.problem(401, "unauthorized")
            for (name, token) in [("read", fixture.read), ("write", fixture.write)] where (ranks[name] ?? 0) < (ranks[scope] ?? 0) {
                let weak = try await api(server, operation.method, path, token: token)
                let problem = try weak.problem(403, "insufficient-scope")
                #expect((problem["detail"] as? String)?.contains("needs \(scope)") == true, "\(label) with a \(name) token: \(weak.text)")
                #expect(weak.headers["www-authenticate"]?.contains("error=\"insufficient_scope\", scope=\"\(scope)\"") == true, "\(label)")
            }
        }
        // Nothing was changed by all those refused calls.
        let testers = try #require(try cliJSON(fixture.cli, "testers", "--json") as? [String: [[String: Any]]])
        #expect(testers["testers"]?.count == 2)
        #expect(try fixture.cli.ok("token", "list").components(separatedBy: "live").count - 1 == 3)
        #expect(try fixture.cli.ok("releases").contains("revoked"))
    }

    @Test func anUploadWithoutAGoodTokenIsRefusedBeforeItsBodyIsRead() async throws {
        let fixture = try await AdminFixture.make()
        let server = try await fixture.serve()
        defer { server.stop() }
        let big = try TemporaryDirectory("upload")
        let file = big.child("Big.ipa")
        try Data(repeating: 0x41, count: 8 << 20).write(to: URL(fileURLWithPath: file))
        // Each token's first use is recorded (a database change); then the server learns the live
        // tokens in the background, and until it has, an upload is let through and checked in full.
        for token in [fixture.read, fixture.write] { _ = try await api(server, "GET", "/settings", token: token) }
        let forged = "bct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        try await waitUntil("the server knows the live tokens") {
            let probe = try await api(server, "POST", "/releases", token: forged, ["-F", "notes=probe"])
            return probe.text.contains("nothing of the body was read")
        }
        for (token, status, kind) in [(nil, 401, "unauthorized"), (fixture.read, 403, "insufficient-scope"),
                                      (forged, 401, "unauthorized")] {
            let refused = try await api(server, "POST", "/releases", token: token, ["-F", "ipa=@\(file)"])
            let problem = try refused.problem(status, kind)
            #expect((problem["detail"] as? String)?.contains("nothing of the body was read") == true)
        }
        // curl's own count: the refused uploads sent (almost) nothing of the 8 MB.
        let counted = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_upload}", "-F", "ipa=@\(file)",
                                                 "\(server.base)/api/v1/releases"])
        let parts = counted.text.split(separator: " ")
        #expect(parts.first == "401")
        #expect((parts.last.flatMap { Int($0) } ?? Int.max) < 1 << 20, "curl uploaded \(counted.text)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.cli.home + "/tmp").filter { $0.hasPrefix("betactl-body-") }
        #expect(leftovers.isEmpty, "no request body was spooled")
        withExtendedLifetime(big) {}
    }
}
