import Foundation
import Testing
import TestSupport

/// `symbolicate` reads reports through the one crash-format entry point: every crash format it
/// is given, and a clear refusal for reports that hold no crash.
@Suite struct SymbolicateFormatsTests {
    static let dsym = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path

    @Test func aHockeySDKUploadIsSymbolicatedLikeTheCrashItCarries() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        let upload = LocalFixtures.url("inspect/hockeyapp/crash-upload.xml").path
        let result = try cli.run("symbolicate", upload, "--dsym", Self.dsym)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(in App) (parse.c:"), "\(result.stdout.prefix(2000))")
    }

    @Test func aLowMemoryReportIsRefusedSayingWhatReadsIt() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        let jetsam = LocalFixtures.url("inspect/ips/JetsamEvent-2024-05-06-101112.ips").path
        let result = try cli.run("symbolicate", jetsam)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(jetsam): it is a low-memory (jetsam) report, which holds no crash to symbolicate; `betactl inspect` summarises it"),
                "\(result.stderr)")
    }
}
