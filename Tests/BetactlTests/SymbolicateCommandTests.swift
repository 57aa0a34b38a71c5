import Foundation
import Testing
import TestSupport

@Suite struct SymbolicateCommandTests {
    static let dsym = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
    static func report(_ name: String) -> String { LocalFixtures.url("symbols/crashes/\(name)").path }

    func initialisedHome() throws -> (TemporaryDirectory, Betactl) {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        return (dir, cli)
    }

    @Test func symbolicatesWithAGivenDSYMAndNamesImagesWithoutSymbols() throws {
        let (dir, cli) = try initialisedHome()
        let result = try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\t0x0000000104a2c0b8 clamp_digit (in App) (inline.h:6) [inlined]"))
        #expect(result.stdout.contains("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"))
        #expect(result.stdout.contains("\t0x0000000104a2c270 compute(_:label:) (in App) (Fixture.swift:18)"))
        #expect(result.stderr.contains("dyld (0C2E5A4B-1D6F-3E7A-8B9C-1A2B3C4D5E6F)"))
        #expect(result.stderr.contains("libsystem_kernel.dylib (6D4A5B8E-7C3F-3B2A-9E1D-0A1B2C3D4E5F)"))
        #expect(result.stderr.contains("Crash signature "))
        // The index went into the home's cache.
        let cached = try FileManager.default.contentsOfDirectory(atPath: dir.child("home") + "/cache/symbols")
        #expect(cached == ["4C4C440B-5555-3144-A184-68D7AACD7C75-arm64.symidx"])
    }

    @Test func inputsThatAreNotFilesAreRefusedNamingWhatTheyAre() throws {
        let (dir, cli) = try initialisedHome()
        let device = try cli.run("symbolicate", "/dev/zero")
        #expect(device.status == 65)
        #expect(device.stderr.contains("/dev/zero: it is a character device, not a regular file"))
        let folder = try cli.run("symbolicate", dir.path)
        #expect(folder.status == 65)
        #expect(folder.stderr.contains("it is a directory, not a regular file"))
        let profile = try cli.run("import-profile", "/dev/null")
        #expect(profile.status == 65)
        #expect(profile.stderr.contains("/dev/null: it is a character device"))
        #expect(!device.stderr.contains("/dev/zero: cannot"), "the path is named once")
        let missing = try cli.run("import-profile", dir.child("missing.mobileprovision"))
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("No such file or directory; check the path"))
    }

    @Test func archivedSymbolsAreUsedWithoutDSYMOptions() throws {
        let (dir, cli) = try initialisedHome()
        defer { withExtendedLifetime(dir) {} }
        try cli.ok("add-symbols", Self.dsym)
        let result = try cli.run("symbolicate", Self.report("App-109.ips"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\t0x0000000104a2c0b8 clamp_digit (in App) (inline.h:6) [inlined]"))
        #expect(result.stdout.contains("\t0x0000000104a2c0f8 parse_pair (in App) (parse.c:13)"))
        #expect(!result.stderr.contains("app image App"))
    }

    @Test func jsonOutputHasFramesLocationsAndSignature() throws {
        let (dir, cli) = try initialisedHome()
        defer { withExtendedLifetime(dir) {} }
        struct Output: Decodable {
            struct Thread: Decodable { var frames: [Frame] }
            struct Frame: Decodable {
                var address: String
                var status: String
                var locations: [Location]
            }
            struct Location: Decodable { var function: String?; var file: String?; var line: Int; var inlined: Bool }
            struct Signature: Decodable { var key: String; var frames: [String] }
            struct Missing: Decodable { var name: String; var uuid: String? }
            var threads: [Thread]
            var signature: Signature
            var imagesWithoutSymbols: [Missing]
        }
        let json = try cli.ok("symbolicate", Self.report("App-309.ips"), "--dsym", Self.dsym, "--json")
        let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
        #expect(output.threads.map(\.frames.count) == [4, 4])
        #expect(output.threads[0].frames[0].locations.map(\.function) == ["clamp_digit", "accumulate", "parse_number"])
        #expect(output.threads[0].frames[3].status == "noSymbols")
        #expect(output.signature.frames == ["clamp_digit", "parse_pair", "main"])
        #expect(output.imagesWithoutSymbols.map(\.name) == ["dyld", "libsystem_kernel.dylib"])
    }

    @Test func withoutSymbolsEveryFrameIsKeptAndTheAppImageIsNamed() throws {
        let (dir, cli) = try initialisedHome()
        defer { withExtendedLifetime(dir) {} }
        let original = try String(contentsOfFile: Self.report("App-legacy.crash"), encoding: .utf8)
        let result = try cli.run("symbolicate", Self.report("App-legacy.crash"))
        #expect(result.status == 0)
        #expect(result.stdout == original.appending(original.hasSuffix("\n") ? "" : "\n"))
        #expect(result.stderr.contains("app image App (4C4C440B-5555-3144-A184-68D7AACD7C75)"))
    }

    @Test func aDamagedCachedIndexIsRebuilt() throws {
        let (dir, cli) = try initialisedHome()
        try cli.ok("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        let index = dir.child("home") + "/cache/symbols/4C4C440B-5555-3144-A184-68D7AACD7C75-arm64.symidx"
        try Data("not an index".utf8).write(to: URL(fileURLWithPath: index))
        let output = try cli.ok("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        #expect(output.contains("parse_number (in App) (parse.c:6)"))
    }

    @Test func badInputsFailWithDataErrorAndAHelpfulMessage() throws {
        let (dir, cli) = try initialisedHome()
        let notReport = dir.child("notes.txt")
        try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: notReport))
        let bad = try cli.run("symbolicate", notReport)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("not a crash report"))
        let missing = try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", dir.child("nowhere.dSYM"))
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("nowhere.dSYM"))
        let usage = try cli.run("symbolicate")
        #expect(usage.status == 64)
    }
}

extension SymbolicateCommandTests {
    @Test func givenDSYMsAndSystemImagesNeverOpenTheDatabase() throws {
        let (dir, cli) = try initialisedHome()
        defer { withExtendedLifetime(dir) {} }
        // A database that cannot be opened: any attempt to read the archive would fail loudly.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: dir.child("home") + "/betactl.sqlite"))
        let result = try cli.run("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"))
        #expect(result.stderr.contains("libsystem_kernel.dylib (6D4A5B8E-7C3F-3B2A-9E1D-0A1B2C3D4E5F): no symbol file with this UUID was given"))
        // The index built above serves later runs without any dSYM; once it is gone, the app image
        // must come from the archive, and the damage shows.
        let cached = try cli.run("symbolicate", Self.report("App-legacy.crash"))
        #expect(cached.stdout.contains("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"))
        try FileManager.default.removeItem(atPath: dir.child("home") + "/cache/symbols")
        let archived = try cli.run("symbolicate", Self.report("App-legacy.crash"))
        #expect(archived.stderr.contains("app image App (4C4C440B-5555-3144-A184-68D7AACD7C75)"))
        #expect(archived.stderr.contains("not a database") || archived.stderr.contains("file is not a database"))
    }

    @Test func anUnreadableReportAmongSeveralIsNamedAndTheOthersStillPrint() throws {
        let (dir, cli) = try initialisedHome()
        let notReport = dir.child("notes.txt")
        try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: notReport))
        let legacy = Self.report("App-legacy.crash"), ips = Self.report("App-309.ips")
        let result = try cli.run("symbolicate", legacy, notReport, ips, "--dsym", Self.dsym)
        #expect(result.status == 65)
        #expect(result.stdout.contains("==> \(legacy) <==\n"))
        #expect(result.stdout.contains("==> \(ips) <==\n"))
        #expect(!result.stdout.contains(notReport))
        #expect(result.stdout.components(separatedBy: "parse_number (in App) (parse.c:6)").count == 3)
        #expect(result.stderr.contains("error: \(notReport): "))
        #expect(result.stderr.contains("1 of 3 reports could not be read (\(notReport))"))
    }

    @Test func severalReportsAreSymbolicatedInOneRun() throws {
        let (dir, cli) = try initialisedHome()
        defer { withExtendedLifetime(dir) {} }
        let legacy = Self.report("App-legacy.crash"), ips = Self.report("App-309.ips")
        let text = try cli.ok("symbolicate", legacy, ips, "--dsym", Self.dsym)
        #expect(text.hasPrefix("==> \(legacy) <==\n"))
        #expect(text.contains("==> \(ips) <==\n"))
        #expect(text.components(separatedBy: "parse_number (in App) (parse.c:6)").count == 3)
        let json = try cli.ok("symbolicate", legacy, ips, "--dsym", Self.dsym, "--json")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(array.map { $0["format"] as? String } == ["text", "ips"])
    }
}

extension SymbolicateCommandTests {
    @Test func anIndexBuiltFromADamagedDSYMIsRebuiltWhenAnIntactOneIsGiven() throws {
        let (dir, cli) = try initialisedHome()
        let damaged = try SymbolIndexingCommandTests.damagedDSYM(in: dir)
        let first = try cli.ok("symbolicate", Self.report("App-legacy.crash"), "--dsym", damaged)
        #expect(first.contains("parse_number (in App) + "))
        #expect(!first.contains("parse.c:"))
        let second = try cli.ok("symbolicate", Self.report("App-legacy.crash"), "--dsym", Self.dsym)
        #expect(second.contains("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"))
        // The rebuilt index serves later runs without any dSYM.
        let third = try cli.ok("symbolicate", Self.report("App-legacy.crash"))
        #expect(third == second)
    }
}
