import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

/// The pieces `symbolicate` uses without a home: dSYM folders searched by UUID, the user's cache
/// folder with its temporary fallback, and KSCrash reports fed to the same symbolicator.
@Suite struct StandaloneSymbolicationTests {
    static let appUUID = UUID(uuidString: "4C4C440B-5555-3144-A184-68D7AACD7C75")!

    /// Copies the arm64 App.dSYM to `relative` inside `directory`.
    static func placeDSYM(in directory: TemporaryDirectory, at relative: String) throws -> String {
        let destination = directory.child(relative)
        try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SymbolFixtures.path("arm64-dwarf4/App.dSYM"), toPath: destination)
        return destination
    }

    @Test func aDSYMDeepInAFolderWithSpacesIsFoundByUUID() throws {
        let root = try TemporaryDirectory("dsym dir")
        let placed = try Self.placeDSYM(in: root, at: "dSYM Archive/2024/Build 42 (release)/App.app.dSYM")
        let locator = try DSYMDirectoryLocator(roots: [root.child("dSYM Archive") + "/"])
        let file = try #require(try locator.symbolFile(for: Self.appUUID, architecture: .arm64))
        #expect(file.path == placed + "/Contents/Resources/DWARF/App")
        #expect(file.architecture == .arm64)
        #expect(try locator.symbolFile(for: UUID(), architecture: nil) == nil)
        let bundleAsRoot = try DSYMDirectoryLocator(roots: [placed])
        #expect(try bundleAsRoot.symbolFile(for: Self.appUUID, architecture: nil)?.path == file.path, "a root may be a dSYM itself")
    }

    @Test func theTreeIsWalkedOnlyWhenFirstAskedAndSymbolicLinksAreNotFollowed() throws {
        let root = try TemporaryDirectory("dsym-lazy")
        try FileManager.default.createDirectory(atPath: root.child("archive"), withIntermediateDirectories: true)
        let locator = try DSYMDirectoryLocator(roots: [root.child("archive")])
        // Placed after the locator was made: found, because nothing was walked yet.
        _ = try Self.placeDSYM(in: root, at: "archive/a/App.dSYM")
        // A link back up the tree would loop, and a link out of it would leave it.
        try FileManager.default.createSymbolicLink(atPath: root.child("archive/a/loop"), withDestinationPath: root.child("archive"))
        let outside = try TemporaryDirectory("dsym-outside")
        _ = try Self.placeDSYM(in: outside, at: "Other.dSYM")
        try FileManager.default.createSymbolicLink(atPath: root.child("archive/elsewhere"), withDestinationPath: outside.path)
        let found = locator.files[Self.appUUID] ?? []
        #expect(found.map(\.path) == [root.child("archive/a/App.dSYM/Contents/Resources/DWARF/App")])
    }

    @Test func rootsThatAreNotFoldersAreRefusedNamingThem() {
        #expect {
            try DSYMDirectoryLocator(roots: ["/nonexistent/dSYM Archive"])
        } throws: { error in
            guard case let .notASymbolFile(path, reason)? = error as? SymbolicationError else { return false }
            return path == "/nonexistent/dSYM Archive" && reason == "no such folder"
        }
        #expect {
            try DSYMDirectoryLocator(roots: [SymbolFixtures.path("arm64-dwarf4/App.dSYM/Contents/Info.plist")])
        } throws: { error in
            guard case let .notASymbolFile(_, reason)? = error as? SymbolicationError else { return false }
            return reason.contains("use --dsym")
        }
    }

    @Test func theCacheFolderFollowsXDGThenHome() {
        #expect(StandaloneSymbolCache.preferredDirectory(environment: ["XDG_CACHE_HOME": "/x/cache/", "HOME": "/home/ann"]) == "/x/cache/betactl/symbols")
        #expect(StandaloneSymbolCache.preferredDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/ann"]) == "/home/ann/.cache/betactl/symbols")
        #expect(StandaloneSymbolCache.preferredDirectory(environment: ["HOME": "/home/ann/"]) == "/home/ann/.cache/betactl/symbols")
        #expect(StandaloneSymbolCache.preferredDirectory(environment: [:]) == nil)
    }

    @Test func aWritableHomeKeepsTheCacheAndAnUnwritableOneFallsBackToATemporaryFolder() throws {
        let home = try TemporaryDirectory("standalone-home")
        let kept = try StandaloneSymbolCache(environment: ["HOME": home.path])
        #expect(kept.directory == home.path + "/.cache/betactl/symbols")
        #expect(!kept.isTemporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept.directory).isEmpty, "the write probe is removed")
        kept.removeIfTemporary()
        #expect(FileManager.default.fileExists(atPath: kept.directory))

        // A HOME that is a file cannot hold .cache, even for root.
        let fileHome = try home.write("not-a-folder", [1])
        let fallback = try StandaloneSymbolCache(environment: ["HOME": fileHome, "TMPDIR": home.path])
        #expect(fallback.isTemporary)
        #expect(fallback.directory.hasPrefix(home.path + "/betactl-symbols-"))
        #expect(fallback.fallbackReason?.contains(fileHome) == true)
        #expect(FileManager.default.fileExists(atPath: fallback.directory))
        fallback.removeIfTemporary()
        #expect(!FileManager.default.fileExists(atPath: fallback.directory))
    }

    @Test func aKSCrashReportSymbolicatesLikeTheAppleReportOfTheSameCrash() throws {
        let kscrash = try KSCrashReport(bytes: [UInt8](try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json"))).crashReport()
        let apple = try CrashReport(bytes: [UInt8](try LocalFixtures.data("symbols/crashes/App-309.ips")))
        let locator = try DSYMPathLocator(paths: [SymbolFixtures.path("arm64-dwarf4/App.dSYM")])
        let symbolicator = Symbolicator(locator: locator, cache: try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory()))
        let fromKSCrash = try symbolicator.symbolicate(kscrash)
        let fromApple = try symbolicator.symbolicate(apple)
        func functions(_ report: SymbolicatedReport, image: String) -> [[String]] {
            report.threads.map { $0.frames.filter { $0.image?.name == image }.map { $0.locations.map { $0.rawFunction ?? "?" }.joined(separator: "<") } }
        }
        #expect(functions(fromKSCrash, image: "App") == functions(fromApple, image: "App"))
        #expect(functions(fromKSCrash, image: "App")[0] == ["clamp_digit<accumulate<parse_number", "parse_pair", "main"])
        // System frames keep the symbols the device found, which Apple's .ips of the crash lacks.
        #expect(functions(fromKSCrash, image: "dyld") == [["start"], ["start"]])
        #expect(fromKSCrash.threads[1].frames[0].status == .fromReport)
        #expect(fromKSCrash.signature.frames == fromApple.signature.frames)
        #expect(fromKSCrash.imagesWithoutSymbols.map(\.name) == ["dyld", "libsystem_kernel.dylib"])
    }
}
