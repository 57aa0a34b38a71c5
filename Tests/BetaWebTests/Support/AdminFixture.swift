import Foundation
import Testing
import TestSupport

/// `WebFixture`'s home (testers, devices, three releases) with the ad hoc profile imported and an
/// API token of each scope, made with the real CLI.
final class AdminFixture: @unchecked Sendable {
    let web: WebFixture
    let read: String
    let write: String
    let admin: String

    var cli: Betactl { web.cli }

    init(environment: [String: String] = [:]) throws {
        web = try WebFixture(environment: environment)
        try web.cli.ok("import-profile", LocalFixtures.url("formats/profiles/beta_adhoc.mobileprovision").path)
        read = try Self.token(web.cli, "reader", "read")
        write = try Self.token(web.cli, "ci", "write")
        admin = try Self.token(web.cli, "root", "admin")
    }

    static func token(_ cli: Betactl, _ name: String, _ scope: String) throws -> String {
        let secret = try cli.ok("token", "create", name, "--scope", scope).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("bct_"))
        return secret
    }

    /// Makes the fixture on a thread of its own: its dozen CLI runs wait synchronously, and an
    /// async test that waited on one of Swift's few cooperative threads would hold back every other
    /// test's tasks (in-process servers among them) on a 2-core machine.
    static func make(environment: [String: String] = [:]) async throws -> AdminFixture {
        try await blocking { try AdminFixture(environment: environment) }
    }

    /// `betactl serve` on a free port, started (and waited for) off the cooperative threads.
    func serve(_ arguments: [String] = []) async throws -> ServeProcess {
        try await web.serve(arguments)
    }
}

/// An API call made with curl: `METHOD base/api/v1<path>` with a bearer token and a JSON body.
func api(_ server: any WebEndpoint, _ method: String, _ path: String, token: String?, json: String? = nil,
         _ extra: [String] = []) async throws -> CurlResponse {
    // The machine may be busy with other builds: allow a slow answer rather than fail on a timeout.
    var arguments = ["-X", method, "--max-time", "300"]
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
    return try await server.fetch("\(server.base)/api/v1\(path)", arguments + extra)
}

extension CurlResponse {
    /// The body as a JSON object.
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text.prefix(300))",
                     sourceLocation: sourceLocation)
    }

    /// Checks that this is an RFC 9457 problem of `kind` with `status`, and returns it.
    @discardableResult
    func problem(_ status: Int, _ kind: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(self.status == status, "expected \(status) \(kind), got \(self.status): \(text.prefix(400))", sourceLocation: sourceLocation)
        #expect(headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
        let object = try object(sourceLocation: sourceLocation)
        #expect(object["type"] as? String == "urn:betactl:problem:\(kind)", "\(text.prefix(400))", sourceLocation: sourceLocation)
        #expect(object["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((object["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        let detail = try #require(object["detail"] as? String, sourceLocation: sourceLocation)
        #expect(!detail.isEmpty && !detail.contains("\n"), "detail is one sentence: \(detail)", sourceLocation: sourceLocation)
        #expect((object["instance"] as? String)?.hasPrefix("/") == true, sourceLocation: sourceLocation)
        return object
    }
}

/// The JSON of a CLI command's `--json` output.
func cliJSON(_ cli: Betactl, _ arguments: String...) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(try cli.ok(arguments).utf8))
}

/// The reasons `betactl release` lists when it refuses a build (it must exit 1), worded as the API
/// words them: the API names the form's fields where the CLI names its options.
func cliRefusals(_ cli: Betactl, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    let result = try cli.run(arguments)
    #expect(result.status == 1, "betactl \(arguments.joined(separator: " ")) was not refused: \(result.stderr)", sourceLocation: sourceLocation)
    return result.stderr.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map { line in
        String(line.dropFirst(4)).replacingOccurrences(of: "pass the build's dSYMs with --dsym", with: "send the build's dSYMs as dsym parts")
            .replacingOccurrences(of: "--allow-missing-symbols", with: "allowMissingSymbols=true")
            .replacingOccurrences(of: "--allow-profile-type ", with: "allowProfileType=")
    }
}
