import BetaKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

@Suite struct ReleaseCommandTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/\(name)").path }

    struct ReleaseJSON: Decodable {
        struct Slice: Decodable {
            var path: String
            var arch: String
            var uuid: String?
            var hasSymbols: Bool
        }
        var id: Int64
        var bundleId: String
        var version: String?
        var groups: [String]
        var notes: String?
        var revoked: String?
        var offeredTo: Offer
        struct Offer: Decodable {
            struct Tester: Decodable {
                var id: Int64
                var name: String
            }
            var everyone: Bool
            var groups: [String]
            var testers: [Tester]
        }
        var sha256: String
        var slices: [Slice]?
    }

    struct SymbolsJSON: Decodable {
        struct Symbol: Decodable {
            var uuid: String
            var arch: String
            var path: String
            var releases: [Int64]
        }
        struct Missing: Decodable {
            var release: Int64
            var path: String
            var arch: String
        }
        var symbols: [Symbol]
        var missing: [Missing]
    }

    @Test func releasesAnIpaWithSeparateDSYMsAndListsIt() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("add-tester", "Ann Lee", "--group", "qa")
        try cli.ok("add-tester", "Bo Chen", "--group", "design")
        let out = try cli.ok("release", Self.fixture("app/Beta.ipa"), "--dsym", Self.fixture("app/Beta.app.dSYM.zip"),
                             "--dsym", Self.fixture("app/BetaWidget.appex.dSYM.zip"), "--notes", "Try the widget", "--group", "qa")
        #expect(out.contains("Released Beta Fixtures 1.2.3 (45) as release 1"))
        // No tokenless link: the release is reached through each tester's own page.
        #expect(!out.contains("/r/1"))
        #expect(out.contains("offered to    group qa (1 tester: Ann Lee)"))
        let shown = try JSONDecoder().decode(ReleaseJSON.self, from: Data(try cli.ok("show-release", "1", "--json").utf8))
        #expect(shown.bundleId == "com.example.beta")
        #expect(shown.groups == ["qa"])
        #expect(shown.offeredTo.everyone == false)
        #expect(shown.offeredTo.testers.map(\.name) == ["Ann Lee"])
        #expect(shown.notes == "Try the widget")
        #expect(shown.slices?.count == 3)
        #expect(shown.slices?.allSatisfy(\.hasSymbols) == true)
        let ipa = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("app/Beta.ipa")))
        #expect(shown.sha256 == SHA256Hex.of(ipa))
        // The archived package is the exact input, stored under its digest.
        let stored = dir.child("home/blobs/\(shown.sha256.prefix(2))/\(shown.sha256)")
        #expect(FileManager.default.contentsEqual(atPath: stored, andPath: Self.fixture("app/Beta.ipa")))
        let list = try JSONDecoder().decode([ReleaseJSON].self, from: Data(try cli.ok("releases", "--json").utf8))
        #expect(list.map(\.id) == [1])
    }

    @Test func refusesABadBuildListingEveryReasonAndPublishesNothing() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let result = try cli.run("release", Self.fixture("app/BetaBadEntitlements.ipa"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("the build cannot be released (6 problems):"))
        #expect(result.stderr.contains("entitlement \"get-task-allow\": the app was signed with true, but an ad hoc build must be signed with false"))
        #expect(result.stderr.contains("entitlement \"aps-environment\": the app was signed with \"development\", but the profile \"Beta Ad Hoc\" allows only \"production\""))
        #expect(result.stderr.contains("no dSYM matches 1 executable slice"))
        #expect(try cli.ok("releases").contains("No releases yet"))
        #expect(try Self.blobFiles(dir.child("home")).isEmpty)
    }

    @Test func allowMissingSymbolsRecordsWhatIsMissingAndAddSymbolsFillsIt() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let refused = try cli.run("release", Self.fixture("app/Beta.ipa"), "--dsym", Self.fixture("app/Beta-rebuilt.app.dSYM.zip"))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no dSYM matches 3 executable slices"))
        let allowed = try cli.run("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols")
        #expect(allowed.status == 0)
        #expect(allowed.stderr.contains("warning: released without symbols for Payload/Beta.app/Beta arm64"))
        var symbols = try JSONDecoder().decode(SymbolsJSON.self, from: Data(try cli.ok("symbols", "--json").utf8))
        #expect(symbols.symbols.isEmpty)
        #expect(symbols.missing.map(\.arch) == ["arm64", "arm64e", "arm64"])
        let added = try cli.ok("add-symbols", Self.fixture("app/Beta.xcarchive.zip"))
        #expect(added.contains("Archived 3 new symbol slices for release 1."))
        symbols = try JSONDecoder().decode(SymbolsJSON.self, from: Data(try cli.ok("symbols", "--json").utf8))
        #expect(symbols.missing.isEmpty)
        #expect(symbols.symbols.allSatisfy { $0.releases == [1] && FileManager.default.fileExists(atPath: $0.path) })
        let again = try cli.ok("add-symbols", Self.fixture("app/Beta.app.dSYM.zip"))
        #expect(again.contains("Archived 0 new symbol slices."))
        let noSymbols = try cli.run("add-symbols", Self.fixture("app/Beta.ipa"))
        #expect(noSymbols.stderr.contains("contains no dSYM"))
    }

    @Test func packagesAnXcarchiveZippedOrAsAFolderIntoAnInstallableIpa() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("release", Self.fixture("app/Beta.xcarchive.zip"))
        try #require(try runToolNow("python3", ["-m", "zipfile", "-e", Self.fixture("app/Beta.xcarchive.zip"), dir.child("x")]).status == 0)
        try cli.ok("release", dir.child("x/Beta.xcarchive"))
        let archive = BetaKit.Archive(home: try Home.open(at: dir.child("home")))
        let releases = try archive.releases()
        #expect(releases.map(\.sourceKind) == [.xcarchive, .xcarchive])
        for release in releases {
            // The package is an ipa with the same executables as the archive's app.
            let ipa = try ArtifactIngestor(workDirectory: dir.path).ingest(path: archive.blobPath(release.packageBlob))
            #expect(ipa.kind == .ipa)
            #expect(ipa.app?.bundlePath == "Payload/Beta.app")
            #expect(ipa.app?.executables.map(\.path) == ["Payload/Beta.app/Beta", "Payload/Beta.app/PlugIns/BetaWidget.appex/BetaWidget"])
            #expect(ipa.app?.problems == [])
            #expect(ipa.app?.executables.first?.size == 114_688)
        }
    }

    @Test func revokeHidesTheReleaseButKeepsItsSymbols() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("release", Self.fixture("app/Beta.xcarchive.zip"))
        #expect(try cli.ok("revoke", "1").contains("Revoked release 1"))
        let shown = try JSONDecoder().decode(ReleaseJSON.self, from: Data(try cli.ok("show-release", "1", "--json").utf8))
        #expect(shown.revoked != nil)
        let symbols = try JSONDecoder().decode(SymbolsJSON.self, from: Data(try cli.ok("symbols", "--json").utf8))
        #expect(symbols.symbols.count == 3)
        #expect(symbols.symbols.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        let twice = try cli.run("revoke", "1")
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("release 1 was already revoked on"))
        #expect(try cli.run("show-release", "9").stderr.contains("there is no release 9; list them with `betactl releases`"))
    }

    @Test func killingAReleaseAtAnyMomentLeavesNoReleaseOrACompleteOneAndOrphansAreCleaned() async throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        var killed = 0
        for delay in stride(from: 0, through: 400_000, by: 10_000) {
            // The delay is waited out on a thread of its own, not on the cooperative pool.
            let arguments = ["release", Self.fixture("app/Beta.xcarchive.zip")]
            if try await blocking({ try cli.killed(arguments, afterMicroseconds: delay) }) { killed += 1 }
            let list = try JSONDecoder().decode([ReleaseJSON].self, from: Data(try cli.ok("releases", "--json").utf8))
            for release in list {
                // A visible release is complete: its package and every symbol file exist.
                let shown = try JSONDecoder().decode(ReleaseJSON.self, from: Data(try cli.ok("show-release", String(release.id), "--json").utf8))
                #expect(FileManager.default.fileExists(atPath: "\(home)/blobs/\(shown.sha256.prefix(2))/\(shown.sha256)"))
                #expect(shown.slices?.allSatisfy(\.hasSymbols) == true)
            }
            if !list.isEmpty { break }
        }
        #expect(killed > 0, "no run was killed; the sweep proves nothing")
        // A further run cleans whatever killed runs left, then publishes (again, when a run finished).
        try cli.ok("release", Self.fixture("app/Beta.xcarchive.zip"), "--again")
        let archive = BetaKit.Archive(home: try Home.open(at: home))
        let referenced = Set(try archive.symbols().map(\.path) + archive.releases().map { archive.blobPath($0.packageBlob) }
            + archive.releases().compactMap { $0.iconBlob.map(archive.blobPath) })
        #expect(Set(try Self.blobFiles(home)) == referenced)
        let staging = try FileManager.default.contentsOfDirectory(atPath: "\(home)/tmp").filter { $0.hasPrefix("stage-") }
        #expect(staging.isEmpty)
    }

    static func blobFiles(_ home: String) throws -> [String] {
        let root = home + "/blobs"
        var files: [String] = []
        for directory in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(directory)") where !name.hasPrefix(".") {
                files.append("\(root)/\(directory)/\(name)")
            }
        }
        return files
    }
}

/// SHA-256 through the system tool, an oracle independent of betactl's implementation.
enum SHA256Hex {
    static func of(_ data: Data) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try? data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = (try? runToolNow("sha256sum", [url.path]))?.output ?? Data()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}

extension ReleaseCommandTests {
    @Test func theSameBuildIsReleasedAgainOnlyWithAgain() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        try cli.ok("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols")
        let blobsBefore = try Self.blobFiles(home)
        let repeated = try cli.run("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols", "--notes", "second try")
        #expect(repeated.status == 1)
        let sha = SHA256Hex.of(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("app/Beta.ipa"))))
        #expect(repeated.stderr.contains("error: Beta Fixtures 1.2.3 (45) was already released as release 1 on "))
        #expect(repeated.stderr.contains("its package has the same SHA-256 (\(sha.prefix(12))…); pass --again to publish it again as a new release"))
        #expect(try JSONDecoder().decode([ReleaseJSON].self, from: Data(try cli.ok("releases", "--json").utf8)).count == 1)
        #expect(try Self.blobFiles(home) == blobsBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/tmp").isEmpty)
        // A revoked release still counts: the build was handed out.
        try cli.ok("revoke", "1")
        let afterRevoke = try cli.run("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols")
        #expect(afterRevoke.stderr.contains("was already released as release 1 on"))
        #expect(afterRevoke.stderr.contains(", revoked on "))
        let again = try cli.ok("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols", "--again")
        #expect(again.contains("as release 2"))
        #expect(again.contains("again         the same package as release 1"))
        let releases = try JSONDecoder().decode([ReleaseJSON].self, from: Data(try cli.ok("releases", "--json").utf8))
        #expect(releases.map(\.id) == [2, 1])
        #expect(Set(releases.map(\.sha256)) == [sha])
    }

    @Test func anXcarchiveIsTheSameBuildWhenItsPackagedIpaIs() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("release", Self.fixture("app/Beta.xcarchive.zip"))
        let repeated = try cli.run("release", Self.fixture("app/Beta.xcarchive.zip"))
        #expect(repeated.status == 1)
        #expect(repeated.stderr.contains("was already released as release 1 on"))
        try cli.ok("release", Self.fixture("app/Beta.xcarchive.zip"), "--again")
    }
}
