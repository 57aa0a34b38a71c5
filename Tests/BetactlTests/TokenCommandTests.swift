import Foundation
import Testing
import TestSupport

/// `betactl token create|list|revoke`: a secret printed once, only its digest stored, the CLI's
/// exit statuses for usage errors, bad names and refusals.
@Suite struct TokenCommandTests {
    @Test func createPrintsTheSecretOnceAndOnlyItsDigestIsStored() async throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init")
        let created = try cli.run("token", "create", "ci", "--scope", "write")
        #expect(created.status == 0)
        let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("bct_") && secret.count == 47, "the secret alone on stdout: \(created.stdout)")
        #expect(created.stderr.contains("Created the write token ci") && created.stderr.contains("not stored"))
        let stored = try await runTool("sqlite3", [directory.child("home/betactl.sqlite"), "SELECT name, scope, digest FROM api_tokens"])
        let digest = try await runTool("sh", ["-c", "printf %s '\(secret)' | sha256sum"])
        #expect(stored.text == "ci|write|\(digest.text.prefix(64))\n")
        let database = try Data(contentsOf: URL(fileURLWithPath: directory.child("home/betactl.sqlite")))
        #expect(database.range(of: Data(secret.utf8)) == nil)

        struct Created: Decodable {
            struct Token: Decodable { var id: Int; var name: String; var scope: String; var created: String; var revoked: String? }
            var token: Token
            var secret: String
        }
        let json = try JSONDecoder().decode(Created.self, from: Data(try cli.ok("token", "create", "reader", "--json").utf8))
        #expect(json.token.scope == "read" && json.token.name == "reader" && json.secret.hasPrefix("bct_") && json.secret != secret)
        let list = try cli.ok("token", "list")
        #expect(list.contains("ci") && list.contains("write") && list.contains("reader") && !list.contains(secret) && !list.contains(json.secret))
        struct List: Decodable {
            struct Token: Decodable { var name: String; var scope: String; var revoked: String? }
            var tokens: [Token]
        }
        let listed = try JSONDecoder().decode(List.self, from: Data(try cli.ok("token", "list", "--json").utf8))
        #expect(listed.tokens.map(\.name) == ["ci", "reader"])
    }

    @Test func revokeStopsATokenAndItsNameCanBeUsedAgain() throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init")
        try cli.ok("token", "create", "ci")
        let duplicate = try cli.run("token", "create", "ci")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("a token named ci already exists"))
        #expect(try cli.ok("token", "revoke", "ci").contains("Revoked the token ci"))
        let again = try cli.run("token", "revoke", "ci")
        #expect(again.status == 1 && again.stderr.contains("no live token is named \"ci\""))
        try cli.ok("token", "create", "ci", "--scope", "admin")
        #expect(try cli.ok("token", "list").components(separatedBy: "\n").filter { $0.hasPrefix("ci ") }.count == 1)
        let all = try cli.ok("token", "list", "--all")
        #expect(all.contains("revoked") && all.components(separatedBy: "\n").filter { $0.hasPrefix("ci ") }.count == 2)
    }

    @Test func badInputGetsTheCLIsExitStatuses() throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init")
        let badName = try cli.run("token", "create", "has space")
        #expect(badName.status == 65 && badName.stderr.contains("token name \"has space\" is not allowed"))
        let badScope = try cli.run("token", "create", "x", "--scope", "root")
        #expect(badScope.status == 65 && badScope.stderr.contains("\"root\" is not a token scope; use read, write or admin"))
        #expect(try cli.run("token").status == 64)
        #expect(try cli.run("token", "create").status == 64)
        let unknown = try cli.run("token", "rotate", "x")
        #expect(unknown.status == 64 && unknown.stderr.contains("use token create NAME, token list or token revoke NAME"))
        #expect(try cli.run("token", "list", "extra").status == 64)
        let empty = try cli.ok("token", "list")
        #expect(empty.contains("No tokens yet"))
    }
}
