import AppleFormats
import Foundation
import Synchronization
import Testing
@testable import BetaKit
import TestSupport

/// The cache keeps one index per UUID and architecture; these check which copy of an image it is
/// built from, and when another copy replaces it.
@Suite struct SymbolIndexSourceTests {
    static let variant = SymbolFixtures.variants[0]  // arm64-dwarf4, the image of the crash fixtures

    /// A copy of the intact DWARF 4 fixture's DWARF file at `dir/name`.
    static func intactCopy(in dir: TemporaryDirectory, _ name: String) throws -> SymbolFile {
        let path = dir.child(name)
        try FileManager.default.copyItem(atPath: SymbolFixtures.path(variant.dwarf), toPath: path)
        return try #require(try DSYMPathLocator.images(inFile: path).first)
    }

    /// A copy whose first compile unit claims DWARF version 0xFFFF: indexed with a problem.
    static func damagedCopy(in dir: TemporaryDirectory) throws -> SymbolFile {
        let dwarf = try SymbolIndexingTests.dsymWithDamagedDebugInfo(in: dir) + "/Contents/Resources/DWARF/App"
        return try #require(try DSYMPathLocator.images(inFile: dwarf).first)
    }

    /// An address whose answer has file, line and two inlined frames, and that answer.
    static func inlinedSample() throws -> (address: UInt64, frames: [SymbolFixtures.Frame]) {
        try #require(try SymbolFixtures.expected(variant).first { $0.frames.count == 3 })
    }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Counts index builds through the progress callback (each build ends by reporting completion).
    final class Builds: Sendable {
        let count = Mutex(0)
        var handler: @Sendable (SymbolIndexProgress) -> Void {
            { step in if step.completedBytes == step.totalBytes { self.count.withLock { $0 += 1 } } }
        }
        var value: Int { count.withLock { $0 } }
    }

    @Test func theIndexHeaderRecordsItsSourceAndWhetherTheDebugInformationWasDamaged() throws {
        let dir = try TemporaryDirectory()
        let intact = try Self.intactCopy(in: dir, "Intact")
        let damaged = try Self.damagedCopy(in: dir)
        let good = try SymbolIndexCache(directory: dir.child("cache-a")).index(for: intact)
        #expect(good.source == SymbolSource(path: intact.path))
        #expect(good.problemCount == 0)
        #expect(!good.isBuiltFromDamagedDebugInfo)
        let bad = try SymbolIndexCache(directory: dir.child("cache-b")).index(for: damaged)
        #expect(bad.source == SymbolSource(path: damaged.path))
        #expect(bad.problemCount == 1)
        #expect(bad.isBuiltFromDamagedDebugInfo)
        // Read back from disk by a fresh cache, as another process would.
        let reread = try #require(SymbolIndexCache(directory: dir.child("cache-b")).cachedIndex(uuid: damaged.uuid, architecture: damaged.architecture))
        #expect(reread.source == bad.source)
        #expect(reread.problemCount == 1)
    }

    @Test func anIndexBuiltFromDamagedDWARFIsReplacedWhenAnIntactCopyIsOffered() throws {
        let dir = try TemporaryDirectory()
        let damaged = try Self.damagedCopy(in: dir)
        let intact = try Self.intactCopy(in: dir, "Intact")
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        let sample = try Self.inlinedSample()
        let first = try cache.index(for: damaged)
        #expect(first.isBuiltFromDamagedDebugInfo)
        #expect(SymbolFixtures.frames(try first.lookup(address: sample.address)) != sample.frames)

        let second = try cache.index(for: intact)
        #expect(!second.isBuiltFromDamagedDebugInfo)
        #expect(second.source?.path == intact.path)
        #expect(SymbolFixtures.frames(try second.lookup(address: sample.address)) == sample.frames)
        // The file on disk was replaced too, so the next process's fast path finds the good one.
        let fresh = try SymbolIndexCache(directory: dir.child("cache"))
        let loaded = try #require(fresh.cachedIndex(uuid: intact.uuid, architecture: intact.architecture))
        #expect(loaded.source?.path == intact.path)
        // Offering the damaged copy again does not bring the worse index back.
        #expect(try fresh.index(for: damaged).source?.path == intact.path)
    }

    @Test func anIntactIndexIsKeptWhenAnotherCopyIsOfferedWhileItsSourceIsUnchanged() throws {
        let dir = try TemporaryDirectory()
        let first = try Self.intactCopy(in: dir, "First")
        let second = try Self.intactCopy(in: dir, "Second")
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        let built = try cache.index(for: first)
        let inode = try #require(Self.inode(built.path))
        let builds = Builds()
        let offered = try SymbolIndexCache(directory: dir.child("cache")).index(for: second, progress: builds.handler)
        #expect(builds.value == 0)
        #expect(offered.source?.path == first.path)
        #expect(Self.inode(built.path) == inode)
    }

    @Test func anIndexWhoseSourceIsGoneOrChangedIsRebuiltFromTheOfferedCopy() throws {
        let dir = try TemporaryDirectory()
        let first = try Self.intactCopy(in: dir, "First")
        let second = try Self.intactCopy(in: dir, "Second")
        let third = try Self.intactCopy(in: dir, "Third")
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        _ = try cache.index(for: first)
        try FileManager.default.removeItem(atPath: first.path)
        let afterRemoval = try cache.index(for: second)
        #expect(afterRemoval.source?.path == second.path)

        // The source changes in place: a new modification time is enough to distrust it.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: second.path)
        #expect(afterRemoval.source?.isUnchanged == false)
        let afterChange = try cache.index(for: third)
        #expect(afterChange.source?.path == third.path)
        #expect(!afterChange.isBuiltFromDamagedDebugInfo)
    }

    @Test func aWorseCopyNeverReplacesABetterIndexAndIsNotBuiltTwice() throws {
        let dir = try TemporaryDirectory()
        let intact = try Self.intactCopy(in: dir, "Intact")
        let damaged = try Self.damagedCopy(in: dir)
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        _ = try cache.index(for: intact)
        // Even with its source gone, an intact index is better than one from damaged DWARF.
        try FileManager.default.removeItem(atPath: intact.path)
        let builds = Builds()
        let kept = try cache.index(for: damaged, progress: builds.handler)
        #expect(builds.value == 1)
        #expect(kept.source?.path == intact.path)
        #expect(!kept.isBuiltFromDamagedDebugInfo)
        // The rejected copy is remembered: offering it again builds nothing.
        _ = try cache.index(for: damaged, progress: builds.handler)
        #expect(builds.value == 1)
        // No candidate file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.child("cache"))
        #expect(left == [URL(fileURLWithPath: kept.path).lastPathComponent])
    }

    @Test func aFileThatDoesNotHoldTheImageLeavesTheCachedIndexInPlace() throws {
        let dir = try TemporaryDirectory()
        let damaged = try Self.damagedCopy(in: dir)
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        _ = try cache.index(for: damaged)
        // Another image's file offered under this UUID (a locator's mistake) cannot be indexed.
        let other = try SymbolFixtures.symbolFile(SymbolFixtures.variants[2])
        let offered = SymbolFile(path: other.path, uuid: damaged.uuid, architecture: damaged.architecture)
        let kept = try cache.index(for: offered)
        #expect(kept.source?.path == damaged.path)
    }
}

extension SymbolIndexSourceTests {
    /// Records which images a locator was asked about.
    final class SpyLocator: SymbolFileLocator {
        let inner: any SymbolFileLocator
        let asked = Mutex<[UUID]>([])
        init(_ inner: any SymbolFileLocator) { self.inner = inner }
        func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
            asked.withLock { $0.append(uuid) }
            return try inner.symbolFile(for: uuid, architecture: architecture)
        }
        func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool, _ body: (SymbolFile) throws -> Bool) throws {
            asked.withLock { $0.append(uuid) }
            try inner.forEachSymbolFile(for: uuid, architecture: architecture, isSystemImage: isSystemImage, body)
        }
    }

    static func crash() throws -> CrashReport { try CrashReport(data: try LocalFixtures.data("symbols/crashes/App-legacy.crash")) }

    @Test func anIntactCachedIndexIsUsedWithoutAskingAnyLocator() throws {
        let dir = try TemporaryDirectory()
        let intact = try Self.intactCopy(in: dir, "Intact")
        _ = try SymbolIndexCache(directory: dir.child("cache")).index(for: intact)
        let spy = SpyLocator(try DSYMPathLocator(paths: [intact.path]))
        let result = try Symbolicator(locator: spy, cache: try SymbolIndexCache(directory: dir.child("cache"))).symbolicate(try Self.crash())
        #expect(result.threads[0].frames[0].locations.map(\.file) == ["/build/Fixture/include/inline.h", "/build/Fixture/include/inline.h", "/build/Fixture/parse.c"])
        #expect(!spy.asked.withLock { $0 }.contains(intact.uuid))
    }

    @Test func symbolicationReplacesAnIndexFromDamagedDWARFWithAGivenIntactCopy() throws {
        let dir = try TemporaryDirectory()
        let damaged = try Self.damagedCopy(in: dir)
        let intact = try Self.intactCopy(in: dir, "Intact")
        let earlier = try Symbolicator(locator: try DSYMPathLocator(paths: [damaged.path]), cache: try SymbolIndexCache(directory: dir.child("cache")))
            .symbolicate(try Self.crash())
        #expect(earlier.threads[0].frames[0].locations.allSatisfy { $0.file == nil })

        let spy = SpyLocator(try DSYMPathLocator(paths: [intact.path]))
        let cache = try SymbolIndexCache(directory: dir.child("cache"))
        let result = try Symbolicator(locator: spy, cache: cache).symbolicate(try Self.crash())
        #expect(result.threads[0].frames[0].locations.map(\.function) == ["clamp_digit", "accumulate", "parse_number"])
        #expect(result.threads[0].frames[0].locations.last?.file == "/build/Fixture/parse.c")
        #expect(spy.asked.withLock { $0 }.contains(intact.uuid))
        #expect(cache.cachedIndex(uuid: intact.uuid, architecture: intact.architecture)?.source?.path == intact.path)
    }

    @Test func aDamagedCopyFirstInTheChainFallsThroughToAnIntactOneAfterIt() throws {
        let dir = try TemporaryDirectory()
        let damaged = try Self.damagedCopy(in: dir)
        let intact = try Self.intactCopy(in: dir, "Intact")
        // Two locators, and one locator given both paths: either way the intact copy wins.
        let chains: [any SymbolFileLocator] = [
            ChainedSymbolFileLocator([try DSYMPathLocator(paths: [damaged.path]), try DSYMPathLocator(paths: [intact.path])]),
            try DSYMPathLocator(paths: [damaged.path, intact.path]),
        ]
        for (number, locator) in chains.enumerated() {
            let cache = try SymbolIndexCache(directory: dir.child("cache-\(number)"))
            let result = try Symbolicator(locator: locator, cache: cache).symbolicate(try Self.crash())
            #expect(result.threads[0].frames[0].locations.last?.file == "/build/Fixture/parse.c")
            #expect(cache.cachedIndex(uuid: intact.uuid, architecture: intact.architecture)?.isBuiltFromDamagedDebugInfo == false)
        }
    }
}

extension SymbolIndexSourceTests {
    /// The fat fixture with its armv7 slice's LC_UUID overwritten by the arm64 slice's: one UUID,
    /// two architectures, which only the architecture tells apart.
    static func fatFileSharingOneUUID(in dir: TemporaryDirectory) throws -> (path: String, uuid: UUID) {
        let original = SymbolFixtures.path(SymbolFixtures.variants[2].dwarf)
        let slices = try DSYMPathLocator.images(inFile: original)
        let arm64 = try #require(slices.first { $0.architecture == .arm64 })
        let armv7 = try #require(slices.first { $0.architecture == .armv7 })
        #expect(arm64.uuid != armv7.uuid)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let old = withUnsafeBytes(of: armv7.uuid.uuid) { Array($0) }, new = withUnsafeBytes(of: arm64.uuid.uuid) { Array($0) }
        var replaced = 0
        for start in 0 ... bytes.count - 16 where bytes[start ..< start + 16].elementsEqual(old) {
            bytes.replaceSubrange(start ..< start + 16, with: new)
            replaced += 1
        }
        #expect(replaced == 1)
        let path = dir.child("Fat")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, arm64.uuid)
    }

    @Test(arguments: [SymbolFixtures.variants[2], SymbolFixtures.variants[3]])
    func theSliceIsChosenByUUIDAndArchitecture(_ variant: SymbolFixtures.Variant) throws {
        let dir = try TemporaryDirectory()
        let (path, uuid) = try Self.fatFileSharingOneUUID(in: dir)
        let slices = try DSYMPathLocator.images(inFile: path)
        #expect(Set(slices.map(\.uuid)) == [uuid])
        let file = SymbolFile(path: path, uuid: uuid, architecture: variant.architecture)
        let index = try SymbolIndexCache(directory: dir.child("cache")).index(for: file)
        #expect(index.architecture == variant.architecture)
        let expected = try SymbolFixtures.expected(variant)
        var mismatches = 0
        for (address, frames) in expected where SymbolFixtures.frames(try index.lookup(address: address)) != frames { mismatches += 1 }
        #expect(mismatches == 0, "\(mismatches) of \(expected.count) addresses differ from llvm-symbolizer's \(variant.architecture) answers")
    }

    @Test func aLocatorGivenAFatFileOffersTheSliceOfTheReportedArchitectureFirst() throws {
        let dir = try TemporaryDirectory()
        let (path, uuid) = try Self.fatFileSharingOneUUID(in: dir)
        let locator = try DSYMPathLocator(paths: [path])
        #expect(try locator.symbolFile(for: uuid, architecture: .armv7)?.architecture == .armv7)
        #expect(try locator.symbolFile(for: uuid, architecture: .arm64)?.architecture == .arm64)
        var offered: [MachOArchitecture] = []
        try locator.forEachSymbolFile(for: uuid, architecture: .armv7, isSystemImage: false) { offered.append($0.architecture); return true }
        #expect(offered == [.armv7, .arm64])
    }
}
