import AppleFormats
import Foundation
import Synchronization
import Testing
@testable import BetaKit
import TestSupport

@Suite struct SymbolIndexingTests {
    static func archiveWithBetaSymbols(_ dir: TemporaryDirectory) throws -> (Archive, [SymbolKey]) {
        let archive = Archive(home: try ArchiveTests.home(dir))
        let added = try archive.addSymbols(paths: [LocalFixtures.url("formats/app/Beta.app.dSYM.zip").path], now: FormatsFixtures.now).added
        return (archive, added)
    }

    /// The file's inode: a rebuilt index is a new file renamed into place, so it changes.
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func buildsAnIndexForEveryArchivedSliceThatTheCacheThenLoadsWithoutRebuilding() async throws {
        let dir = try TemporaryDirectory()
        let (archive, keys) = try Self.archiveWithBetaSymbols(dir)
        #expect(keys.map(\.architecture.name).sorted() == ["arm64", "arm64e"])
        let seen = Mutex<[SymbolKey: Double]>([:])
        let failures = await archive.buildSymbolIndexes(for: keys) { key, step in
            seen.withLock { $0[key] = Swift.max($0[key] ?? 0, step.fraction) }
        }
        #expect(failures.isEmpty)
        // Each slice reported progress up to completion.
        #expect(seen.withLock { $0 } == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1.0) }))
        let cache = try SymbolIndexCache(directory: archive.symbolIndexDirectory)
        for key in keys {
            let path = cache.indexPath(uuid: key.uuid, architecture: key.architecture)
            let index = try SymbolIndex(path: path)
            #expect(index.uuid == key.uuid)
            #expect(index.architecture == key.architecture)
            // A lookup through the cache maps the built file instead of writing a new one.
            let before = try #require(Self.inode(path))
            let location = try #require(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture))
            let loaded = try cache.index(for: SymbolFile(path: location.path, uuid: key.uuid, architecture: key.architecture)) { _ in
                Issue.record("the index of \(key) was rebuilt although ingest built it")
            }
            #expect(loaded.uuid == key.uuid)
            #expect(Self.inode(path) == before)
        }
    }

    @Test func aCorruptArchivedSymbolFileIsReportedPerSliceInsteadOfThrown() async throws {
        let dir = try TemporaryDirectory()
        let (archive, keys) = try Self.archiveWithBetaSymbols(dir)
        let location = try #require(try archive.symbolLocation(uuid: keys[0].uuid, architecture: keys[0].architecture))
        // Keep only the fat header: the slices it lists now lie beyond the end of the file.
        let truncated = try Data(contentsOf: URL(fileURLWithPath: location.path)).prefix(64)
        try FileManager.default.removeItem(atPath: location.path)
        try truncated.write(to: URL(fileURLWithPath: location.path))
        let failures = await archive.buildSymbolIndexes(for: keys)
        #expect(failures.map(\.key) == keys)
        for failure in failures {
            #expect(failure.kind == .notBuilt)
            #expect(failure.description.contains(failure.key.uuid.uuidString))
            #expect(failure.description.contains("`betactl symbolicate` will rebuild it"))
            #expect(!failure.reason.isEmpty)
        }
        let cache = try SymbolIndexCache(directory: archive.symbolIndexDirectory)
        #expect(keys.allSatisfy { !FileManager.default.fileExists(atPath: cache.indexPath(uuid: $0.uuid, architecture: $0.architecture)) })
    }

    @Test func damagedDWARFIsIndexedAsFarAsItGoesAndReported() async throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let damaged = try Self.dsymWithDamagedDebugInfo(in: dir)
        let keys = try archive.addSymbols(paths: [damaged], now: FormatsFixtures.now).added
        #expect(keys.count == 1)
        let problems = await archive.buildSymbolIndexes(for: keys)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.kind == .damagedDebugInfo)
        #expect(problem.description.contains("the symbols of \(keys[0]) are archived, but their debug information is damaged ("))
        #expect(problem.description.contains("DWARF version 65535"))
        #expect(problem.description.hasSuffix("crash frames in the damaged part will show function names without file and line"))
        // The index exists and still answers from the symbol table.
        let cache = try SymbolIndexCache(directory: archive.symbolIndexDirectory)
        let index = try SymbolIndex(path: cache.indexPath(uuid: keys[0].uuid, architecture: keys[0].architecture))
        #expect(index.uuid == keys[0].uuid)
    }

    /// A copy of the DWARF 4 fixture dSYM whose first compile unit claims DWARF version 0xFFFF:
    /// the Mach-O container is intact (ingest accepts it), the debug information is not.
    static func dsymWithDamagedDebugInfo(in dir: TemporaryDirectory) throws -> String {
        let copy = dir.child("Damaged.dSYM")
        try FileManager.default.copyItem(atPath: LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path, toPath: copy)
        let dwarf = copy + "/Contents/Resources/DWARF/App"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dwarf)))
        let offset = try bytes.withUnsafeBytes { raw -> Int in
            let image = try MachOImage(bytes: raw)
            return Int(try #require(image.section(named: "__debug_info")).fileOffset)
        }
        bytes[offset + 4] = 0xFF
        bytes[offset + 5] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: dwarf))
        return copy
    }

    @Test func anUnusableCacheFolderFailsEverySliceWithTheFolderNamed() async throws {
        let dir = try TemporaryDirectory()
        let (archive, keys) = try Self.archiveWithBetaSymbols(dir)
        // A file where the folder should be stands for a cache that cannot be created.
        try FileManager.default.createDirectory(atPath: archive.home.cachePath, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: archive.symbolIndexDirectory))
        let failures = await archive.buildSymbolIndexes(for: keys)
        #expect(failures.map(\.key) == keys)
        #expect(failures.allSatisfy { $0.reason.contains("cannot use the cache folder \(archive.symbolIndexDirectory)") })
    }

    @Test func cancellingStopsIndexingAndReportsTheSlicesLeftForFirstUse() async throws {
        let dir = try TemporaryDirectory()
        let (archive, keys) = try Self.archiveWithBetaSymbols(dir)
        let task = Task { () async -> [SymbolIndexingProblem] in
            withUnsafeCurrentTask { $0?.cancel() }
            return await archive.buildSymbolIndexes(for: keys)
        }
        let failures = await task.value
        #expect(failures.map(\.key) == keys)
        #expect(failures.allSatisfy { $0.reason == "indexing was cancelled" })
        let cache = try SymbolIndexCache(directory: archive.symbolIndexDirectory)
        #expect(keys.allSatisfy { !FileManager.default.fileExists(atPath: cache.indexPath(uuid: $0.uuid, architecture: $0.architecture)) })
    }

    @Test func archivedKeysWithoutASymbolFileAreReportedNotSkippedSilently() async throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let unknown = SymbolKey(uuid: UUID(), architecture: .arm64)
        let failures = await archive.buildSymbolIndexes(for: [unknown])
        #expect(failures == [SymbolIndexingProblem(key: unknown, kind: .notBuilt, reason: "the archive has no symbol file for it")])
    }
}

extension SymbolIndexingTests {
    @Test(arguments: [false, true])
    func addSymbolsReplacesADamagedArchivedCopyWithAnIntactOneAndKeepsTheOldFile(indexedFirst: Bool) async throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let damaged = try Self.dsymWithDamagedDebugInfo(in: dir)
        let key = try #require(try archive.addSymbols(paths: [damaged], now: FormatsFixtures.now).added.first)
        // Whether the damage is known from the cached index or found by indexing the archived file again.
        if indexedFirst { _ = await archive.buildSymbolIndexes(for: [key]) }
        let old = try #require(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)).path

        let intact = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
        let result = try archive.addSymbols(paths: [intact], now: FormatsFixtures.now)
        #expect(result.added.isEmpty)
        #expect(result.alreadyPresent.isEmpty)
        #expect(result.replaced.map(\.key) == [key])
        #expect(result.replaced.first?.archivedProblems == 1)
        #expect(result.replaced.first?.description == "\(key): the archived copy was replaced by an intact one: its debug information is damaged (1 part could not be read); the old file stays in the archive")
        let new = try #require(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)).path
        #expect(new != old)
        #expect(try Data(contentsOf: URL(fileURLWithPath: new)) == Data(contentsOf: URL(fileURLWithPath: intact + "/Contents/Resources/DWARF/App")))
        // Source data is never lost: the damaged file is still archived and recorded.
        #expect(FileManager.default.fileExists(atPath: old))
        let history = try archive.replacedSymbols()
        #expect(history.map(\.key) == [key])
        #expect(history.first?.path == old)
        #expect(history.first?.reason.contains("damaged") == true)

        // Adding either copy again changes nothing: the archive holds the intact one.
        for path in [damaged, intact] {
            let again = try archive.addSymbols(paths: [path], now: FormatsFixtures.now)
            #expect(again.replaced.isEmpty)
            #expect(again.alreadyPresent == [key])
            #expect(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)?.path == new)
        }
    }

    @Test func anIntactArchivedCopyIsNeverReplaced() throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let intact = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
        let key = try #require(try archive.addSymbols(paths: [intact], now: FormatsFixtures.now).added.first)
        let archived = try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)?.path
        let result = try archive.addSymbols(paths: [try Self.dsymWithDamagedDebugInfo(in: dir)], now: FormatsFixtures.now)
        #expect(result.replaced.isEmpty)
        #expect(result.alreadyPresent == [key])
        #expect(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)?.path == archived)
        #expect(try archive.replacedSymbols().isEmpty)
    }

    @Test func reAddingAnArchivedDSYMIndexesTheArchivedCopyIntoTheCacheOnceAndKeepsIt() throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let intact = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
        let key = try #require(try archive.addSymbols(paths: [intact], now: FormatsFixtures.now).added.first)
        let archived = try #require(try archive.symbolLocation(uuid: key.uuid, architecture: key.architecture)).path
        let indexPath = try SymbolIndexCache(directory: archive.symbolIndexDirectory).indexPath(uuid: key.uuid, architecture: key.architecture)
        #expect(!FileManager.default.fileExists(atPath: indexPath))

        // Judging the archived copy leaves its index in the cache, for symbolicate and the next add-symbols.
        #expect(try archive.addSymbols(paths: [intact], now: FormatsFixtures.now).alreadyPresent == [key])
        let index = try SymbolIndex(path: indexPath)
        #expect(index.source == SymbolSource(path: archived))
        #expect(index.problemCount == 0)
        let inode = Self.inode(indexPath)
        #expect(try archive.addSymbols(paths: [intact], now: FormatsFixtures.now).alreadyPresent == [key])
        #expect(Self.inode(indexPath) == inode)
    }

    @Test func aReplacementOnlyGoesAheadWhileTheKeyStillHoldsTheBlobThatWasJudged() throws {
        let dir = try TemporaryDirectory()
        let archive = Archive(home: try ArchiveTests.home(dir))
        let key = try #require(try archive.addSymbols(paths: [LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path], now: FormatsFixtures.now).added.first)
        let other = try #require(try archive.addSymbols(paths: [LocalFixtures.url("formats/app/Beta.app.dSYM.zip").path], now: FormatsFixtures.now).added.first)
        func blob(_ key: SymbolKey) throws -> HashDigest? {
            try archive.home.store.read { db in
                try db.queryOne("SELECT blob FROM symbols WHERE uuid = ? AND arch = ?", [.text(key.uuid.uuidString), .text(key.architecture.name)])?
                    .string(0).flatMap(HashDigest.init(hex:))
            }
        }
        let archived = try #require(try blob(key))
        // An archived blob of another image stands for the intact copy offered.
        let offered = try #require(try blob(other))
        func replace(judged: HashDigest) throws -> Bool {
            let replacement = SymbolReplacement(key: key, archivedProblems: 1, archivedDigest: judged, offeredPath: "")
            return try archive.home.store.write { db in
                try Archive.replaceSymbols(replacement, with: (key, offered, "App.dSYM", "App"), now: FormatsFixtures.now, db: db)
            }
        }

        // The row holds another blob than the one judged (another process replaced it meanwhile): it stays.
        #expect(try !replace(judged: SHA256.hash(Array("a file judged earlier".utf8))))
        #expect(try blob(key) == archived)
        #expect(try archive.replacedSymbols().isEmpty)

        #expect(try replace(judged: archived))
        #expect(try blob(key) == offered)
        #expect(try archive.replacedSymbols().map(\.key) == [key])
        // Once replaced, the same judgement cannot replace it again.
        #expect(try !replace(judged: archived))
        #expect(try archive.replacedSymbols().count == 1)
    }
}
