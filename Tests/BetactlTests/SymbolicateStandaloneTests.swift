import Foundation
import Testing
import TestSupport

/// `symbolicate` as a new user runs it, with no betactl home: given dSYMs only, indexes in the
/// XDG cache folder (else ~/.cache, else a temporary folder), dSYM folders searched by UUID.
@Suite struct SymbolicateStandaloneTests {
    static let dsym = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
    static func report(_ name: String) -> String { LocalFixtures.url("symbols/crashes/\(name)").path }
    static let index = "4C4C440B-5555-3144-A184-68D7AACD7C75-arm64.symidx"

    /// A user with a HOME folder but no betactl home (BETACTL_HOME unset, no ~/.betactl).
    static func newUser(_ extra: [String: String] = [:]) throws -> (Betactl, TemporaryDirectory) {
        let directory = try TemporaryDirectory("standalone")
        try FileManager.default.createDirectory(atPath: directory.child("home"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.child("tmp"), withIntermediateDirectories: true)
        var environment = ["BETACTL_HOME": "", "HOME": directory.child("home"), "XDG_CACHE_HOME": "", "TMPDIR": directory.child("tmp")]
        for (key, value) in extra { environment[key] = value.replacingOccurrences(of: "$DIR", with: directory.path) }
        return (Betactl(home: "", extraEnvironment: environment), directory)
    }

    static func checkSymbolicated(_ result: Betactl.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"), sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("no betactl home at"), sourceLocation: sourceLocation)
    }

    @Test func withoutAHomeTheGivenDSYMIsUsedAndTheIndexIsKeptInTheUsersCacheFolder() throws {
        let (cli, directory) = try Self.newUser()
        let result = try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        Self.checkSymbolicated(result)
        #expect(!result.stderr.contains("note:"), "nothing to say when the cache folder works")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.child("home/.cache/betactl/symbols")) == [Self.index])
        #expect(!FileManager.default.fileExists(atPath: directory.child("home/.betactl")), "no home is created")
        // The second run reads the kept index.
        Self.checkSymbolicated(try cli.run("symbolicate", Self.report("App-309.ips"), "--dsym", Self.dsym))
    }

    @Test func xdgCacheHomeIsPreferredWhenItIsAbsolute() throws {
        let (cli, directory) = try Self.newUser(["XDG_CACHE_HOME": "$DIR/xdg"])
        Self.checkSymbolicated(try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.child("xdg/betactl/symbols")) == [Self.index])
        #expect(!FileManager.default.fileExists(atPath: directory.child("home/.cache")))
    }

    @Test func anUnwritableHomeFallsBackToATemporaryFolderThatIsRemovedAfterwards() throws {
        let (cli, directory) = try Self.newUser(["HOME": "$DIR/home-file"])
        try directory.write("home-file", [0])
        let result = try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        Self.checkSymbolicated(result)
        #expect(result.stderr.contains("note: no betactl home, and the cache folder cannot be used"))
        #expect(result.stderr.contains(directory.child("home-file")))
        #expect(result.stderr.contains("symbol indexes are kept in \(directory.child("tmp"))/betactl-symbols-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.child("tmp")).isEmpty, "the temporary cache is removed")
        // Inspect needs no cache and no home either.
        let inspect = try cli.run("inspect", "--json", Self.dsym)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("\"kind\" : \"dsym\""))
    }

    @Test func dSYMFoldersAreSearchedByUUIDThroughNamesWithSpaces() throws {
        let (cli, directory) = try Self.newUser()
        let archive = directory.child("dSYM Archive")
        try FileManager.default.createDirectory(atPath: archive + "/2024-05/Build 42 (release)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.dsym, toPath: archive + "/2024-05/Build 42 (release)/App.app.dSYM")
        try FileManager.default.copyItem(atPath: LocalFixtures.url("symbols/fat/Fat.dSYM").path, toPath: archive + "/Other Fat.dSYM")
        Self.checkSymbolicated(try cli.run("symbolicate", Self.report("App-109.ips"), "--dsym-dir", archive))
        // Another user, so the index the first run kept does not answer for App.
        let (other, otherDirectory) = try Self.newUser()
        defer { withExtendedLifetime(otherDirectory) {} }
        let unmatched = try other.run("symbolicate", Self.report("App-109.ips"), "--dsym-dir", archive + "/Other Fat.dSYM")
        #expect(unmatched.status == 0)
        #expect(unmatched.stderr.contains("app image App (4C4C440B-5555-3144-A184-68D7AACD7C75): no dSYM with this UUID was given or found under --dsym-dir (there is no betactl home, so no archive was searched)"))
        let missing = try cli.run("symbolicate", Self.report("App-109.ips"), "--dsym-dir", directory.child("No Such Archive"))
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("No Such Archive is not a dSYM: no such folder"))
    }

    @Test func aKSCrashReportIsSymbolicatedToo() throws {
        let (cli, _) = try Self.newUser()
        let result = try cli.run("symbolicate", LocalFixtures.url("inspect/kscrash/kscrash-3.0.0-seconds.json").path, "--dsym", Self.dsym)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("parse_number (in App) (parse.c:6)"))
        #expect(result.stdout.contains("start (in dyld)"), "the device's own symbol is kept for system frames")
        let refused = try cli.run("symbolicate", LocalFixtures.url("inspect/kscrash/kscrash-4.0.0.json").path)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("format version 4.0.0"))
    }

    @Test func anExplicitHomeThatDoesNotExistIsStillAnError() throws {
        let (cli, directory) = try Self.newUser()
        let result = try cli.run("symbolicate", "--home", directory.child("typo"), Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        #expect(result.status != 0)
        #expect(result.stderr.contains("no betactl home at \(directory.child("typo"))"))
    }

    @Test func withAHomeTheArchiveIsStillSearched() throws {
        let (cli, directory) = try Self.newUser()
        let home = directory.child("home/.betactl")
        try cli.ok("init", "--home", home)
        try cli.ok("add-symbols", "--home", home, Self.dsym)
        // BETACTL_HOME is unset, so the default home (~/.betactl) is the one found.
        Self.checkSymbolicated(try cli.run("symbolicate", Self.report("App-legacy.crash")))
        #expect(FileManager.default.fileExists(atPath: home + "/cache/symbols/" + Self.index))
        #expect(!FileManager.default.fileExists(atPath: directory.child("home/.cache/betactl")))
    }
}
