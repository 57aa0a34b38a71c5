import Foundation
import Testing
import TestSupport

@Suite struct CLIConventionTests {
    let dir: TemporaryDirectory
    let cli: Betactl

    init() throws {
        dir = try TemporaryDirectory()
        cli = Betactl(home: dir.child("home"))
    }

    @Test func helpListsEveryCommandAndEachCommandHasHelp() throws {
        let help = try cli.run("--help")
        #expect(help.status == 0)
        let commands = ["init", "add-tester", "testers", "show-tester", "remove-tester", "add-device", "remove-device",
                        "devices", "export-devices", "import-devices", "demo"]
        for command in commands {
            #expect(help.stdout.contains("\n  \(command) "), "--help does not list \(command)")
            let own = try cli.run(command, "--help")
            #expect(own.status == 0)
            #expect(own.stdout.contains("USAGE: betactl \(command)"))
        }
        #expect(try cli.run("help", "devices").stdout.contains("USAGE: betactl devices"))
    }

    @Test func theReadmeCommandTableHasARowForEveryCommandNamingAllItsOptions() throws {
        let readme = try String(contentsOf: SourceConventionTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        let commands = try cli.ok("--help").components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let first = line.split(separator: " ").first, first.first?.isLetter == true else { return nil }
            return String(first)
        }
        #expect(commands.count >= 24, "the command list was not read: \(commands)")
        let globals: Set<String> = ["--home", "--no-color", "--help"]
        for command in commands {
            // A row documents a command when one of its code spans starts with the command's name.
            guard let row = rows.first(where: { $0.contains("| `\(command) ") || $0.contains("| `\(command)`") || $0.contains(", `\(command) ") }) else {
                Issue.record("README.md has no row for `\(command)`")
                continue
            }
            let options = try cli.ok(command, "--help").components(separatedBy: "\n")
                .compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
                .filter { $0.hasPrefix("--") && !globals.contains($0) }
            for option in options {
                #expect(row.contains(option), "README.md's row for `\(command)` does not mention \(option)")
            }
        }
    }

    @Test func noArgumentsPrintsUsageToStderrWithStatus64() throws {
        let result = try cli.run([])
        #expect(result.status == 64)
        #expect(result.stderr.contains("USAGE:"))
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownCommandsAndFlagsAreUsageErrorsWithASuggestion() throws {
        let command = try cli.run("devcies")
        #expect(command.status == 64)
        #expect(command.stderr.contains("unknown command \"devcies\" (did you mean devices?)"))
        let flag = try cli.run("add-tester", "Ann", "--emial", "a@b.co")
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("unknown option --emial for `add-tester` (did you mean --email?)"))
        let missing = try cli.run("add-device", "1")
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("missing UDID"))
    }

    @Test func exitStatusesSeparateUsageDataAndRefusals() throws {
        try cli.ok("init")
        try cli.ok("add-tester", "Ann", "--email", "ann@example.com")
        #expect(try cli.run("add-device", "Ann", "not-a-udid", "--family", "iphone").status == 65)
        #expect(try cli.run("add-device", "Ann", "00008030-001A2B3C4D5E6F70").status == 64)
        #expect(try cli.run("add-device", "Nobody", "00008030-001A2B3C4D5E6F70", "--family", "iphone").status == 1)
        try cli.ok("add-device", "Ann", "00008030-001A2B3C4D5E6F70", "--model", "iPhone15,2")
        let again = try cli.run("add-device", "Ann", "00008030-001a2b3c4d5e6f70", "--family", "iphone")
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("error: device 00008030-001A2B3C4D5E6F70 is already registered to Ann"))
        #expect(again.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
    }

    @Test func commandsOnAMissingHomeSayHowToCreateOne() throws {
        let result = try cli.run("devices")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no betactl home at \(dir.child("home"))"))
        #expect(result.stderr.contains("betactl init"))
    }

    @Test func colourIsNeverUsedWhenOutputIsNotATerminal() throws {
        try cli.ok("init")
        let result = try cli.run("devices")
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(!(try cli.run("devcies")).stderr.contains("\u{1B}["))
    }

    /// Runs betactl under a pseudo-terminal so isatty() is true.
    func runOnTerminal(_ command: String, noColor: Bool) throws -> String {
        try cli.runOnTerminal(command.split(separator: " ").map(String.init), environment: noColor ? ["NO_COLOR": "1"] : [:])
    }

    @Test(.enabled(if: Betactl.terminalAvailable))
    func colourIsUsedOnATerminalUnlessNOCOLORIsSet() throws {
        try cli.ok("init")
        #expect(try runOnTerminal("devcies", noColor: false).contains("\u{1B}[31merror:"))
        #expect(try runOnTerminal("devices", noColor: false).contains("\u{1B}[32m"))
        #expect(!(try runOnTerminal("devices", noColor: true)).contains("\u{1B}["))
        #expect(!(try runOnTerminal("devices --no-color", noColor: false)).contains("\u{1B}["))
    }

    @Test func initReportsWhatChangedOnASecondRun() throws {
        let first = try cli.ok("init", "--team-id", "ABCDE12345")
        #expect(first.contains("Created betactl home"))
        let second = try cli.ok("init", "--membership-renewal", "2027-03-01")
        #expect(second.contains("membership renewal: unset → 2027-03-01"))
        #expect(!second.contains("team id"))
        #expect(try cli.ok("init").contains("nothing changed"))
        let bad = try cli.run("init", "--membership-renewal", "2027-02-30")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("2027-02-30"))
    }
}
