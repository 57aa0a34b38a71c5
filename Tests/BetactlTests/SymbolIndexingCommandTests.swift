import AppleFormats
import Foundation
import Testing
import TestSupport

/// `release` and `add-symbols` index the symbols they archive, and an index failure never fails a publish.
@Suite struct SymbolIndexingCommandTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url(name).path }

    /// The image in `Tests/Fixtures/symbols/crashes`, symbolicated by `arm64-dwarf4/App.dSYM`.
    static let crashImage = "4C4C440B-5555-3144-A184-68D7AACD7C75"

    struct Symbol: Decodable {
        var uuid: String
        var arch: String
    }
    struct SymbolsJSON: Decodable {
        var symbols: [Symbol]
    }

    static func indexPath(_ home: String, uuid: String, arch: String) -> String { "\(home)/cache/symbols/\(uuid)-\(arch).symidx" }

    /// A rebuilt index is a new file renamed into place, so its inode changes.
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func addSymbolsIndexesNewSlicesAndSymbolicateUsesThoseIndexes() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        let added = try cli.run("add-symbols", Self.fixture("symbols/arm64-dwarf4/App.dSYM"))
        #expect(added.status == 0)
        #expect(added.stdout.contains("Archived 1 new symbol slice."))
        #expect(added.stderr.isEmpty, "unexpected output: \(added.stderr)")
        let index = Self.indexPath(home, uuid: Self.crashImage, arch: "arm64")
        let built = try #require(Self.inode(index), "add-symbols did not index \(Self.crashImage)")

        let result = try cli.run("symbolicate", Self.fixture("symbols/crashes/App-309.ips"))
        #expect(result.status == 0)
        #expect(result.stdout.contains("parse_number (in App) (parse.c:6)"))
        #expect(!result.stderr.contains("Indexing symbols"))
        #expect(Self.inode(index) == built, "symbolicate rebuilt the index that add-symbols had built")
    }

    @Test func releaseIndexesEveryArchivedSliceOfTheBuild() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        try cli.ok("release", Self.fixture("formats/app/Beta.ipa"), "--dsym", Self.fixture("formats/app/Beta.app.dSYM.zip"),
                   "--dsym", Self.fixture("formats/app/BetaWidget.appex.dSYM.zip"))
        let symbols = try JSONDecoder().decode(SymbolsJSON.self, from: Data(try cli.ok("symbols", "--json").utf8)).symbols
        #expect(symbols.count == 3)
        let expected = Set(symbols.map { "\($0.uuid)-\($0.arch).symidx" })
        let cached = Set(try FileManager.default.contentsOfDirectory(atPath: home + "/cache/symbols").filter { !$0.hasPrefix(".") })
        #expect(cached == expected)
    }

    @Test func anIndexThatCannotBeBuiltIsAWarningAndTheReleaseStands() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        // A folder where the index file must go makes that one build fail at its final rename.
        let blocked = "4C4C44A8-5555-3144-A1C8-1A6BD73D7603"
        try FileManager.default.createDirectory(atPath: Self.indexPath(home, uuid: blocked, arch: "arm64"), withIntermediateDirectories: true)
        let result = try cli.run("release", Self.fixture("formats/app/Beta.ipa"), "--dsym", Self.fixture("formats/app/Beta.app.dSYM.zip"),
                                 "--dsym", Self.fixture("formats/app/BetaWidget.appex.dSYM.zip"))
        #expect(result.status == 0)
        #expect(result.stdout.contains("as release 1"))
        #expect(result.stderr.contains("warning: the symbols of \(blocked) (arm64) are archived but their index could not be built ("))
        #expect(result.stderr.contains("); `betactl symbolicate` will rebuild it when it needs it"))
        #expect(result.stderr.components(separatedBy: "warning:").count == 2, "only the blocked slice warns: \(result.stderr)")
        // The other slices were indexed, and the release with all its symbols is there.
        #expect(Self.inode(Self.indexPath(home, uuid: "4C4C44AD-5555-3144-A124-A8077B0075C5", arch: "arm64e")) != nil)
        #expect(Self.inode(Self.indexPath(home, uuid: "4C4C44E4-5555-3144-A15B-E60F9C8F7CB8", arch: "arm64")) != nil)
        #expect(try cli.ok("symbols").contains(blocked))
        #expect(try cli.ok("releases").contains("Beta"))
    }

    @Test func aDSYMWithDamagedDebugInformationIsArchivedWithAWarning() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        let copy = try Self.damagedDSYM(in: dir)
        let result = try cli.run("add-symbols", copy)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Archived 1 new symbol slice."))
        #expect(result.stderr.contains("warning: the symbols of \(Self.crashImage) (arm64) are archived, but their debug information is damaged ("))
        #expect(result.stderr.contains("crash frames in the damaged part will show function names without file and line"))
        #expect(Self.inode(Self.indexPath(home, uuid: Self.crashImage, arch: "arm64")) != nil)
        // What the warning says: the symbol table still names the function, but no file and line.
        let symbolicated = try cli.run("symbolicate", Self.fixture("symbols/crashes/App-309.ips"))
        #expect(symbolicated.status == 0)
        #expect(symbolicated.stdout.contains("parse_number (in App)"))
        #expect(!symbolicated.stdout.contains("parse.c:"))
    }

    @Test func addSymbolsWithAnUnusableCacheWarnsForEverySliceAndStillArchives() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        try FileManager.default.createDirectory(atPath: home + "/cache", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: home + "/cache/symbols"))
        let result = try cli.run("add-symbols", Self.fixture("formats/app/Beta.app.dSYM.zip"))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Archived 2 new symbol slices."))
        for key in ["4C4C44A8-5555-3144-A1C8-1A6BD73D7603 (arm64)", "4C4C44AD-5555-3144-A124-A8077B0075C5 (arm64e)"] {
            #expect(result.stderr.contains("warning: the symbols of \(key) are archived but their index could not be built (cannot use the cache folder \(home)/cache/symbols"))
        }
    }
}

extension SymbolIndexingCommandTests {
    /// A copy of the App dSYM whose first compile unit claims DWARF version 0xFFFF.
    static func damagedDSYM(in dir: TemporaryDirectory) throws -> String {
        let copy = dir.child("Damaged.dSYM")
        try FileManager.default.copyItem(atPath: fixture("symbols/arm64-dwarf4/App.dSYM"), toPath: copy)
        let dwarf = copy + "/Contents/Resources/DWARF/App"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dwarf)))
        let offset = try bytes.withUnsafeBytes { raw in Int(try #require(try MachOImage(bytes: raw).section(named: "__debug_info")).fileOffset) }
        bytes[offset + 4] = 0xFF
        bytes[offset + 5] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: dwarf))
        return copy
    }

    struct SymbolPaths: Decodable {
        struct Entry: Decodable { var uuid: String; var path: String }
        var symbols: [Entry]
    }

    @Test func addSymbolsReplacesADamagedArchivedDSYMWithAnIntactOneAndKeepsTheOldFile() throws {
        let dir = try TemporaryDirectory()
        let home = dir.child("home")
        let cli = Betactl(home: home)
        try cli.ok("init")
        try cli.ok("add-symbols", try Self.damagedDSYM(in: dir))
        let before = try JSONDecoder().decode(SymbolPaths.self, from: Data(try cli.ok("symbols", "--json").utf8)).symbols
        let damagedBlob = try #require(before.first?.path)
        #expect(!(try cli.ok("symbolicate", Self.fixture("symbols/crashes/App-309.ips"))).contains("parse.c:"))

        let result = try cli.run("add-symbols", Self.fixture("symbols/arm64-dwarf4/App.dSYM"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("replaced \(Self.crashImage) (arm64): the archived copy was replaced by an intact one: its debug information is damaged"))
        #expect(result.stdout.contains("Archived 0 new symbol slices and replaced 1 damaged one."))
        #expect(result.stderr.isEmpty, "unexpected warnings: \(result.stderr)")
        let after = try JSONDecoder().decode(SymbolPaths.self, from: Data(try cli.ok("symbols", "--json").utf8)).symbols
        #expect(after.count == 1)
        #expect(after.first?.path != damagedBlob)
        #expect(FileManager.default.fileExists(atPath: damagedBlob), "the damaged file must stay in the archive")
        // The replacing copy was indexed at once: symbolicate finds file and line without a dSYM.
        let symbolicated = try cli.ok("symbolicate", Self.fixture("symbols/crashes/App-309.ips"))
        #expect(symbolicated.contains("parse_number (in App) (parse.c:6)"))
    }

    @Test func addSymbolsHelpAndReadmeDescribeTheReplacement() throws {
        let dir = try TemporaryDirectory()
        let help = try Betactl(home: dir.child("home")).ok("add-symbols", "--help")
        #expect(help.contains("the copy given is intact, the given copy replaces it"))
        #expect(help.contains("The damaged file is never deleted"))
        let readme = try String(contentsOf: SourceConventionTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("that copy then replaces it (the damaged file stays in the archive)"))
    }
}
