import Foundation
import Testing
import TestSupport

/// A home with testers, devices and releases, made through the real CLI, and `betactl serve` on it.
///
/// - Ann Lee (group qa): Ann's iPhone (…A01, in the build's profile) and Ann's iPad (…B02, in it).
/// - Bo Chen (group design): Bo's iPhone (…D04, not in the profile).
/// - Release 1: Beta.ipa for everyone, with its dSYMs and notes.
/// - Release 2: Beta.xcarchive.zip for group qa only.
/// - Release 3: Beta.ipa again, revoked.
final class WebFixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    let cli: Betactl
    let annToken: String
    let boToken: String

    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
    static let desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
    static let installer = "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:281)"

    static func app(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }

    /// Makes a fixture on a thread of its own. The first fixture of a test process builds the
    /// template home with a dozen commands and every fixture asked for meanwhile waits for it: on
    /// the cooperative pool (two threads on a 2-core machine) those waits would stop every test.
    static func make(environment: [String: String] = [:]) async throws -> WebFixture {
        try await blocking { try WebFixture(environment: environment) }
    }

    init(environment: [String: String] = [:]) throws {
        directory = try TemporaryDirectory("betaweb")
        cli = Betactl(home: directory.child("home"), extraEnvironment: environment)
        guard environment.isEmpty else {
            (annToken, boToken) = try Self.populate(cli)
            return
        }
        // The same home every time: made once per test process, copied (modes and all) for each fixture.
        let template = try Self.template.get()
        let copied = try runToolNow("cp", ["-a", template.home, cli.home])
        guard copied.status == 0 else { throw CopyFailure(message: "cp -a \(template.home) failed: \(copied.error)") }
        annToken = template.annToken
        boToken = template.boToken
    }

    /// The template home, made with the real CLI the first time a fixture is asked for: a dozen
    /// commands, three releases among them, which are most of a web test's own work.
    private static let template = Result { () throws -> Template in
        let directory = try TemporaryDirectory("betaweb-template")
        let cli = Betactl(home: directory.child("home"))
        let (ann, bo) = try populate(cli)
        return Template(directory: directory, home: cli.home, annToken: ann, boToken: bo)
    }

    private struct Template: Sendable {
        let directory: TemporaryDirectory
        let home: String
        let annToken: String
        let boToken: String
    }

    private struct CopyFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Makes the fixture's testers, devices and releases in the home of `cli`; returns Ann's and Bo's page tokens.
    private static func populate(_ cli: Betactl) throws -> (String, String) {
        try cli.ok("init", "--team-id", "ABCDE12345")
        let ann = try Self.token(cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com", "--group", "qa", "--json"))
        let bo = try Self.token(cli.ok("add-tester", "Bo Chen", "--email", "bo@example.com", "--group", "design", "--json"))
        try cli.ok("add-device", "ann@example.com", "00008030-0000000000000A01", "--model", "iPhone15,2", "--name", "Ann's iPhone")
        try cli.ok("add-device", "ann@example.com", "00008101-0000000000000B02", "--model", "iPad13,4", "--name", "Ann's iPad")
        try cli.ok("add-device", "bo@example.com", "00008110-0000000000000D04", "--model", "iPhone16,1", "--name", "Bo's iPhone")
        try cli.ok("release", Self.app("Beta.ipa"), "--dsym", Self.app("Beta.app.dSYM.zip"), "--dsym", Self.app("BetaWidget.appex.dSYM.zip"),
                   "--notes", "First line <b>bold?</b>\n\nSee https://example.com/notes.")
        try cli.ok("release", Self.app("Beta.xcarchive.zip"), "--group", "qa", "--notes", "For QA only")
        try cli.ok(releaseAgainArguments(cli))
        try cli.ok("revoke", "3")
        return (ann, bo)
    }

    /// Publishes Beta.ipa a second time (as the revoked release 3).
    private static func releaseAgainArguments(_ cli: Betactl) -> [String] {
        var arguments = ["release", Self.app("Beta.ipa"), "--notes", "Withdrawn build"]
        if (try? cli.run("release", "--help").stdout.contains("--again")) == true { arguments.append("--again") }
        return arguments
    }

    static func token(_ json: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let page = try #require(object["page"] as? String)
        return String(try #require(page.components(separatedBy: "/t/").last))
    }

    /// Starts `betactl serve` on a free port with `arguments` added, waiting for it to listen on a
    /// thread of its own rather than one of the cooperative pool's.
    func serve(_ arguments: [String] = []) async throws -> ServeProcess {
        try await ServeProcess.start(cli, ["serve", "--listen", "127.0.0.1:0"] + arguments)
    }
}

extension Betactl {
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "betactl \(arguments.joined(separator: " ")) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }
}

/// Runs a script from `Tests/Clients` with python3 and decodes the JSON it prints.
func runClient(_ script: String, _ arguments: [String]) async throws -> [String: Any] {
    let path = Repository.root.appendingPathComponent("Tests/Clients/\(script)").path
    let result = try await runTool("python3", [path] + arguments)
    #expect(result.status == 0, "\(script) failed: \(result.error)")
    return try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
}
