import Foundation
import Testing
import TestSupport

/// The one-line progress display of `release` and `add-symbols`: drawn on a terminal's standard
/// error only, never into a pipe or a file, and not switched off by NO_COLOR (it is not colour).
@Suite(.enabled(if: Betactl.terminalAvailable)) struct ProgressLineTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
    }

    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }

    /// The escape that starts every progress redraw: back to column 0 and erase the line.
    static let redraw = "\r\u{1B}[2K"

    /// A fresh initialised home, so every run archives (and indexes) its symbols anew.
    func freshHome(_ name: String) throws -> Betactl {
        let cli = Betactl(home: dir.child(name))
        try cli.ok("init")
        return cli
    }

    /// Beta's dSYM zip with a 9 MB stored file added: ingest draws no bar for inputs under 8 MB.
    func largeDSYM() throws -> String {
        let path = dir.child("Beta-large.app.dSYM.zip")
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        try FileManager.default.copyItem(atPath: Self.fixture("Beta.app.dSYM.zip"), toPath: path)
        let python = try runToolNow("python3", ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "a") as z:
                z.writestr(zipfile.ZipInfo("Beta.app.dSYM/Contents/Resources/padding.bin"), bytes(9 << 20))
            """, path])
        try #require(python.status == 0, "python3: \(python.error)")
        return path
    }

    @Test func addSymbolsDrawsIngestAndIndexProgressOnATerminalAndClearsItBeforeTheSummary() throws {
        let screen = try freshHome("home").runOnTerminal(["add-symbols", try largeDSYM()])
        #expect(screen.contains(Self.redraw + "hashing 100% (9 of 9 MB)"))
        #expect(screen.contains(Self.redraw + "verifying "))
        #expect(screen.contains(Self.redraw + "indexing symbols 4C4C44A8-5555-3144-A1C8-1A6BD73D7603 (arm64) 100%"))
        #expect(screen.contains(Self.redraw + "indexing symbols 4C4C44AD-5555-3144-A124-A8077B0075C5 (arm64e) 100%"))
        // The line is erased before the summary, so the summary starts a clean line.
        #expect(screen.contains(Self.redraw + "added    4C4C44A8"))
        #expect(screen.contains("Archived 2 new symbol slices."))
    }

    @Test func releaseDrawsProgressOnATerminal() throws {
        let screen = try freshHome("home").runOnTerminal([
            "release", Self.fixture("Beta.ipa"), "--dsym", try largeDSYM(), "--dsym", Self.fixture("BetaWidget.appex.dSYM.zip"),
        ])
        #expect(screen.contains("as release 1"))
        #expect(screen.contains(Self.redraw + "hashing 100% (9 of 9 MB)"))
        #expect(screen.contains(Self.redraw + "indexing symbols 4C4C44E4-5555-3144-A15B-E60F9C8F7CB8 (arm64) 100%"))
    }

    @Test func smallInputsGetNoIngestBarButIndexingIsStillShown() throws {
        let screen = try freshHome("home").runOnTerminal(["add-symbols", Self.fixture("Beta.app.dSYM.zip")])
        #expect(!screen.contains("hashing"))
        #expect(!screen.contains("verifying"))
        #expect(screen.contains(Self.redraw + "indexing symbols 4C4C44A8-5555-3144-A1C8-1A6BD73D7603 (arm64)"))
    }

    @Test func noProgressWhenStandardErrorIsAPipe() throws {
        let result = try freshHome("home").run("add-symbols", try largeDSYM())
        #expect(result.status == 0)
        #expect(result.stdout.contains("Archived 2 new symbol slices."))
        #expect(result.stderr.isEmpty, "progress leaked into a pipe: \(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("\r"))
    }

    @Test func noProgressWhenOnlyStandardOutputIsATerminal() throws {
        let errors = dir.child("stderr.txt")
        let screen = try freshHome("home").runOnTerminal(["add-symbols", try largeDSYM()], shellSuffix: "2>'\(errors)'")
        #expect(screen.contains("Archived 2 new symbol slices."))
        #expect(!screen.contains("\u{1B}[2K"))
        let written = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(written.isEmpty, "progress was written to a file: \(written.debugDescription)")
    }

    @Test func noColorLeavesProgressOnButTermDumbTurnsItOff() throws {
        let noColor = try freshHome("no-color").runOnTerminal(["add-symbols", try largeDSYM()], environment: ["NO_COLOR": "1"])
        #expect(noColor.contains(Self.redraw + "hashing 100%"))
        #expect(noColor.contains("Archived 2 new symbol slices."))
        let flag = try freshHome("flag").runOnTerminal(["--no-color", "add-symbols", try largeDSYM()])
        #expect(flag.contains(Self.redraw + "hashing 100%"))
        // A dumb terminal cannot erase a line, so redraws would pile up: no progress at all.
        let dumb = try freshHome("dumb").runOnTerminal(["add-symbols", try largeDSYM()], environment: ["TERM": "dumb"])
        #expect(dumb.contains("Archived 2 new symbol slices."))
        #expect(!dumb.contains("hashing"))
        #expect(!dumb.contains("indexing symbols"))
    }
}
