import Foundation
import Testing
import TestSupport

/// `betactl apple auto` and `betactl jobs`: the switch names what it lacks; the queue's commands
/// refuse what does not exist or cannot be done, naming the job and the fix.
@Suite struct JobsCommandTests {
    /// A new home (the folder lives as long as the returned value).
    func home() throws -> (cli: Betactl, directory: TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        return (cli, dir)
    }

    @Test func autoOnRefusesNamingEachMissingPieceAndItsCommand() throws {
        let (cli, directory) = try home()
        defer { withExtendedLifetime(directory) {} }
        #expect(try cli.ok("apple", "auto", "status").contains("Automatic provisioning: off (batching window 120 s)"))
        let refused = try cli.run("apple", "auto", "on")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("betactl apple connect"))
        #expect(refused.stderr.contains("betactl code-identity import"))
        #expect(refused.stderr.contains("betactl approval-rule set"))
        try cli.ok("approval-rule", "set", "--all")
        let still = try cli.run("apple", "auto", "on")
        #expect(!still.stderr.contains("approval-rule"), "the rule is set now")
        let status = try JSONSerialization.jsonObject(with: Data(try cli.ok("apple", "auto", "status", "--window", "30", "--json").utf8)) as? [String: Any]
        #expect(status?["enabled"] as? Bool == false)
        #expect(status?["window"] as? Int == 30, "the window is kept while off")
        #expect((status?["missing"] as? [String])?.count == 2)
        let badWindow = try cli.run("apple", "auto", "status", "--window", "soon")
        #expect(badWindow.status == 65)
        #expect(badWindow.stderr.contains("whole seconds from 0 to 86400"))
        let badAction = try cli.run("apple", "auto", "maybe")
        #expect(badAction.status != 0 && badAction.stderr.contains("use on, off or status"))
    }

    @Test func jobsListsNothingAndRefusesUnknownJobsAndActions() throws {
        let (cli, directory) = try home()
        defer { withExtendedLifetime(directory) {} }
        #expect(try cli.ok("jobs").contains("No jobs."))
        #expect((try JSONSerialization.jsonObject(with: Data(try cli.ok("jobs", "--json").utf8)) as? [Any])?.isEmpty == true)
        #expect(try cli.ok("jobs", "run").contains("No job is due."))
        let unknown = try cli.run("jobs", "retry", "7")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("there is no job 7; list them with `betactl jobs`"))
        let missing = try cli.run("jobs", "cancel")
        #expect(missing.status == 64 && missing.stderr.contains("needs the job's number"))
        let bogus = try cli.run("jobs", "frobnicate")
        #expect(bogus.status == 64 && bogus.stderr.contains("use list, retry ID, cancel ID or run"))
    }
}
