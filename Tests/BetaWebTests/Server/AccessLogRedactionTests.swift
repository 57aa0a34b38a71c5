import Foundation
import Testing
import TestSupport

/// A credential put in a query string is refused, and the access log of `betactl serve` does not
/// keep it either.
@Suite(.serialized) struct AccessLogRedactionTests {
    @Test func queryStringCredentialsAreRefusedAndRedactedInTheAccessLog() async throws {
        let fixture = try await WebFixture.make()
        let token = try fixture.cli.ok(["token", "create", "ci", "--scope", "read"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try await fixture.serve()
        defer { _ = server.stop() }
        let secrets = [token, "SECRET-ACCESS-TOKEN", "SECRET-API-KEY"]
        let answer = try await curl("\(server.base)/api/v1/testers?limit=5&token=\(token)&access_token=\(secrets[1])&api_key=\(secrets[2])")
        #expect(answer.status == 401, "a token in the query is not a credential")
        try await waitUntil("the request is in the access log") {
            server.errorLines.contains { $0.contains("/api/v1/testers?limit=5&token=…&access_token=…&api_key=…") }
        }
        for secret in secrets { #expect(!server.errorLines.joined(separator: "\n").contains(secret)) }
    }
}
