import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

@Suite struct SymbolIndexRobustnessTests {
    static let variant = SymbolFixtures.variants[1]

    static func builtIndex() async throws -> (cache: SymbolIndexCache, file: SymbolFile, path: String) {
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let file = try SymbolFixtures.symbolFile(variant)
        let index = try cache.index(for: file)
        return (cache, file, index.path)
    }

    /// Where the header and section directory end, and where the last table ends.
    static func layout(_ index: SymbolIndex) -> (directoryEnd: Int, dataEnd: Int) {
        let sections = SymbolIndexFormat.Section.allCases
        let directoryEnd = SymbolIndexFormat.headerSize + sections.count * SymbolIndexFormat.directoryEntrySize
        let dataEnd = sections.map { index.tables[Int($0.rawValue)].offset + index.tables[Int($0.rawValue)].count * $0.recordSize }.max() ?? 0
        return (directoryEnd, dataEnd)
    }

    @Test func damagedIndexFilesAreRefusedWithATypedErrorOrAnswerSoundly() async throws {
        let (_, _, path) = try await Self.builtIndex()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let (directoryEnd, dataEnd) = Self.layout(try SymbolIndex(path: path))
        #expect(dataEnd <= original.count && directoryEnd < dataEnd)
        let expected = try SymbolFixtures.expected(Self.variant)
        let scratch = try SymbolFixtures.temporaryDirectory() + "/damaged.symidx"
        /// Opens `bytes` as an index and looks addresses up: each step answers soundly (no more
        /// frames than an inline chain may have) or throws `SymbolicationError`, which is the
        /// only error these calls can throw; returns whether opening was refused.
        func probe(_ bytes: [UInt8]) throws -> (refused: Bool, lookupErrors: Int) {
            try Data(bytes).write(to: URL(fileURLWithPath: scratch))
            let index: SymbolIndex
            do { index = try SymbolIndex(path: scratch) } catch {
                #expect(error.description.contains("; "), "not a sentence with a fix: \(error)")
                return (true, 0)
            }
            var errors = 0
            for entry in expected.prefix(200) {
                do {
                    let locations = try index.lookup(address: entry.address)
                    #expect(locations.count <= 512, "\(locations.count) frames for one address")
                } catch {
                    #expect(error.description.contains("; "), "not a sentence with a fix: \(error)")
                    errors += 1
                }
            }
            return (false, errors)
        }
        let step = Swift.max(1, original.count / 150)
        for length in stride(from: 0, to: original.count, by: step) {
            // A prefix that cuts into the header or any table is refused when it is opened.
            let outcome = try probe(Array(original[..<length]))
            if length < dataEnd { #expect(outcome.refused, "a \(length)-byte prefix of a \(dataEnd)-byte index opened") }
        }
        var mutated = original
        var refused = 0, answered = 0, lookupErrors = 0
        // Past the checksummed header, flips reach the tables themselves.
        for position in stride(from: 0, to: original.count, by: step) {
            mutated[position] ^= 0xff
            let outcome = try probe(mutated)
            if position < directoryEnd { #expect(outcome.refused, "a flip at \(position) inside the checksummed header was accepted") }
            if outcome.refused { refused += 1 } else { answered += 1 }
            lookupErrors += outcome.lookupErrors
            mutated[position] = original[position]
        }
        #expect(refused > 0 && answered > 0, "refused \(refused), answered \(answered): the sweep missed a path")
        // The undamaged index answers exactly as the reference does.
        let intact = try SymbolIndex(path: path)
        let sample = try #require(expected.first { $0.frames.count == 3 })
        #expect(SymbolFixtures.frames(try intact.lookup(address: sample.address)) == sample.frames)
    }

    @Test func corruptOrOutdatedIndexesAreRebuilt() async throws {
        let (_, file, path) = try await Self.builtIndex()
        let directory = (path as NSString).deletingLastPathComponent
        let expected = try SymbolFixtures.expected(Self.variant)
        for damage in ["garbage", "version"] {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if damage == "garbage" { bytes = [UInt8](repeating: 0x41, count: 100) } else { bytes[8] = 99 }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(throws: SymbolicationError.self) { try SymbolIndex(path: path) }
            let index = try SymbolIndexCache(directory: directory).index(for: file)
            let sample = try #require(expected.first { $0.frames.count == 3 })
            #expect(SymbolFixtures.frames(try index.lookup(address: sample.address)) == sample.frames)
        }
    }

    @Test func damagedTablesAreRebuiltDuringSymbolication() async throws {
        let (_, file, path) = try await Self.builtIndex()
        // Point every root at a node that does not exist; the header stays valid.
        let index = try SymbolIndex(path: path)
        let roots = index.tables[Int(SymbolIndexFormat.Section.roots.rawValue)]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for record in 0 ..< roots.count { for i in 24 ..< 28 { bytes[roots.offset + record * 32 + i] = 0xff } }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reopened = try SymbolIndex(path: path)
        let expected = try SymbolFixtures.expected(Self.variant)
        let sample = try #require(expected.first { $0.frames.count == 3 })
        #expect(throws: SymbolicationError.self) { try reopened.lookup(address: sample.address) }

        let report = try CrashReport(data: try LocalFixtures.data("symbols/crashes/App-legacy.crash"))
        _ = file
        let dwarf4 = try DSYMPathLocator(paths: [SymbolFixtures.path("arm64-dwarf4/App.dSYM")])
        let cache = try SymbolIndexCache(directory: (path as NSString).deletingLastPathComponent)
        // Damage the dwarf4 index the same way, then symbolicate through it.
        let appFile = try #require(dwarf4.files.values.first)
        let appIndex = try cache.index(for: appFile)
        var appBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: appIndex.path)))
        let appRoots = appIndex.tables[Int(SymbolIndexFormat.Section.roots.rawValue)]
        for record in 0 ..< appRoots.count { for i in 24 ..< 28 { appBytes[appRoots.offset + record * 32 + i] = 0xff } }
        try Data(appBytes).write(to: URL(fileURLWithPath: appIndex.path))
        let fresh = try SymbolIndexCache(directory: (path as NSString).deletingLastPathComponent)
        let result = try Symbolicator(locator: dwarf4, cache: fresh).symbolicate(report)
        #expect(result.threads[0].frames[0].locations.map(\.function) == ["clamp_digit", "accumulate", "parse_number"])
    }

    @Test func damagedDSYMsBuildSoundPartialIndexesOrFailWithATypedError() async throws {
        let original = [UInt8](try LocalFixtures.data("symbols/" + Self.variant.dwarf))
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let directory = try SymbolFixtures.temporaryDirectory()
        let addresses = try SymbolFixtures.expected(Self.variant).map(\.address)
        let step = Swift.max(1, original.count / 60)
        var mutated = original
        var built = 0, failed = 0
        for position in stride(from: 0, to: original.count, by: step) {
            mutated[position] ^= 0xff
            let dsym = directory + "/App-\(position)"
            let destination = directory + "/index-\(position)"
            try Data(mutated).write(to: URL(fileURLWithPath: dsym))
            let builder = SymbolIndexBuilder(source: SymbolFile(path: dsym, uuid: file.uuid, architecture: file.architecture),
                                             destination: destination, progress: nil)
            do {
                let report = try builder.build()
                built += 1
                // What was built opens and answers; damage it met is counted in the report.
                do {
                    let index = try SymbolIndex(path: destination)
                    #expect(index.uuid == file.uuid)
                    #expect(index.problemCount == report.warnings.count)
                    for address in addresses.prefix(100) { _ = try index.lookup(address: address) }
                } catch {
                    Issue.record("an index built from a flip at \(position) cannot be used: \(error)")
                }
            } catch let error as SymbolicationError {
                failed += 1
                #expect(error.description.contains("; "), "not a sentence with a fix: \(error)")
                #expect(!FileManager.default.fileExists(atPath: destination), "a failed build left an index behind")
            }
            mutated[position] = original[position]
        }
        #expect(built > 0 && failed > 0, "built \(built), failed \(failed): the sweep missed a path")
    }

    @Test func cancelledBuildStopsWithCancellationError() async throws {
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let destination = try SymbolFixtures.temporaryDirectory() + "/cancelled.symidx"
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try SymbolIndexBuilder(source: file, destination: destination, progress: nil).build()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: destination))
        // No scratch files are left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: (destination as NSString).deletingLastPathComponent)
        #expect(left.isEmpty)
    }

    @Test func buildsReportMonotonicProgressToCompletion() async throws {
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let destination = try SymbolFixtures.temporaryDirectory() + "/progress.symidx"
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var values: [SymbolIndexProgress] = []
            func add(_ value: SymbolIndexProgress) { lock.withLock { values.append(value) } }
        }
        let log = Log()
        let report = try SymbolIndexBuilder(source: file, destination: destination, progress: { log.add($0) }).build()
        #expect(report.units >= 5)
        #expect(report.warnings.isEmpty)
        let fractions = log.lock.withLock { log.values.map(\.fraction) }
        #expect(fractions.first == 0)
        #expect(fractions.last == 1)
        #expect(fractions == fractions.sorted())
    }

    @Test func concurrentRequestsShareOneIndex() async throws {
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let indexes = try await withThrowingTaskGroup(of: SymbolIndex.self) { group in
            for _ in 0 ..< 8 { group.addTask { try cache.index(for: file) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(indexes.count == 8)
        #expect(Set(indexes.map { ObjectIdentifier($0) }).count == 1)
    }

    @Test func wrongUUIDIsAnErrorNamingWhatTheFileHolds() throws {
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let wrong = SymbolFile(path: file.path, uuid: UUID(), architecture: file.architecture)
        let destination = try SymbolFixtures.temporaryDirectory() + "/wrong.symidx"
        do {
            _ = try SymbolIndexBuilder(source: wrong, destination: destination, progress: nil).build()
            Issue.record("expected an error")
        } catch let error as SymbolicationError {
            #expect(error.description.contains(file.uuid.uuidString))
            #expect(error.description.contains(wrong.uuid.uuidString))
        }
    }
}

extension SymbolIndexRobustnessTests {
    @Test func symbolTableIsTheFallbackWhenDWARFIsMissing() async throws {
        // The same dSYM with its debug sections renamed away: only the symbol table remains.
        var bytes = [UInt8](try LocalFixtures.data("symbols/" + Self.variant.dwarf))
        let needle = Array("__debug_".utf8)
        var renamed = 0
        for i in 0 ..< 4096 where bytes[i ..< i + needle.count].elementsEqual(needle) {
            bytes[i + 2] = UInt8(ascii: "x")
            renamed += 1
        }
        #expect(renamed >= 5)
        let directory = try SymbolFixtures.temporaryDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/App"))
        let file = try #require(try DSYMPathLocator.images(inFile: directory + "/App").first)
        let index = try SymbolIndexCache(directory: directory + "/cache").index(for: file)
        let expected = try SymbolFixtures.expected(Self.variant)
        let inParse = try #require(expected.first { $0.frames.last?.function == "parse_number" && $0.frames.count == 3 })
        let locations = try index.lookup(address: inParse.address)
        #expect(locations.count == 1)
        #expect(locations[0].function == "parse_number")
        #expect(locations[0].file == nil)
        #expect(locations[0].symbolOffset.map { $0 > 0 } == true)
    }
}

extension SymbolIndexRobustnessTests {
    @Test func theNextBuildRemovesScratchFilesOfDeadBuildsButKeepsLiveOnes() throws {
        let directory = try SymbolFixtures.temporaryDirectory()
        // A pid far above any real one stands for a killed build; our own pid for a running one.
        let dead = directory + "/.X-arm64.symidx.2147483000.12345.rows"
        let live = directory + "/.X-arm64.symidx.\(ProcessInfo.processInfo.processIdentifier).6789.rows"
        let other = directory + "/.hidden"
        for path in [dead, live, other] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        let cache = try SymbolIndexCache(directory: directory)
        #expect(FileManager.default.fileExists(atPath: dead))
        _ = try cache.index(for: try SymbolFixtures.symbolFile(Self.variant))
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func eachCacheInstanceSweepsScratchFilesOnlyBeforeItsFirstBuild() async throws {
        let directory = try SymbolFixtures.temporaryDirectory()
        let file = try SymbolFixtures.symbolFile(Self.variant)
        let cache = try SymbolIndexCache(directory: directory)
        try await cache.build(file)
        let dead = directory + "/.X-arm64.symidx.2147483000.12345.rows"
        try Data("x".utf8).write(to: URL(fileURLWithPath: dead))
        try await cache.build(file)
        #expect(FileManager.default.fileExists(atPath: dead))
        try await SymbolIndexCache(directory: directory).build(file)
        #expect(!FileManager.default.fileExists(atPath: dead))
    }
}
