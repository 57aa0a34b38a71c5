import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// A home is its owner's alone: files 0600 and folders 0700 whatever the process's umask (this
/// test process runs with the usual 022, under which a default mode would show as 0644 or 0755),
/// and a looser home is tightened when opened.
@Suite struct HomePermissionsTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// Every file and folder under `root` whose mode is not 0600 (files) or 0700 (folders).
    static func looseEntries(under root: String) throws -> [String] {
        var loose: [String] = []
        if try mode(root) != 0o700 { loose.append(root) }
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let expected = isDirectory.boolValue ? 0o700 : 0o600
            let actual = try mode(path)
            if actual != expected { loose.append("\(relative) is \(String(actual, radix: 8))") }
        }
        return loose
    }

    @Test func theDatabaseItsJournalFilesTheFoldersAndSymbolIndexesArePrivate() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let dir = try TemporaryDirectory()
        let path = dir.child("home")
        let home = try Home.initialise(at: path, change: HomeSettingsChange(), now: Date()).home
        #expect(home.permissionNotice == nil)
        _ = try Roster(home: home).addTester(NewTester(name: "Ann"), now: Date())
        // While the connection is open, SQLite's WAL and shared-memory files exist beside the database.
        for suffix in ["", "-wal", "-shm"] {
            let file = path + "/" + Home.databaseName + suffix
            #expect(FileManager.default.fileExists(atPath: file), "\(file) is missing")
            let mode = try Self.mode(file)
            #expect(mode == 0o600, "\(Home.databaseName)\(suffix) is \(String(mode, radix: 8))")
        }
        let cache = try SymbolIndexCache(directory: home.symbolIndexPath)
        let index = try cache.index(for: try SymbolFixtures.symbolFile(SymbolFixtures.variants[1]))
        #expect(try Self.mode(index.path) == 0o600)
        let blob = try BlobStore(root: home.blobsPath).store(Array("profile".utf8), staging: home.temporaryPath)
        #expect(try Self.mode(BlobStore(root: home.blobsPath).path(for: blob)) == 0o600)
        let loose = try Self.looseEntries(under: path)
        #expect(loose.isEmpty, "\(loose)")
    }

    @Test func aHomeOthersCanReadIsTightenedOnOpenWithOneNotice() throws {
        let dir = try TemporaryDirectory()
        let path = dir.child("home")
        _ = try Home.initialise(at: path, change: HomeSettingsChange(), now: Date())
        let blobFolder = path + "/blobs/ab"
        try FileManager.default.createDirectory(atPath: blobFolder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: blobFolder + "/" + String(repeating: "ab", count: 32)))
        // As an older betactl (or a copy made by hand) left it.
        for (relative, mode) in [("", 0o755), ("/betactl.sqlite", 0o644), ("/blobs", 0o755), ("/blobs/ab", 0o775),
                                 ("/blobs/ab/" + String(repeating: "ab", count: 32), 0o664), ("/cache", 0o777)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path + relative)
        }
        let opened = try Home.open(at: path)
        let notice = try #require(opened.permissionNotice)
        #expect(notice == "other users could read 2 files and 4 folders in \(path); betactl made them private "
            + "(folders 0700, files 0600), as it keeps its whole home")
        let loose = try Self.looseEntries(under: path)
        #expect(loose.isEmpty, "\(loose)")
        #expect(try Home.open(at: path).permissionNotice == nil)
    }

    @Test func tighteningNeverFollowsASymbolicLinkOutOfTheHome() throws {
        let dir = try TemporaryDirectory()
        let path = dir.child("home")
        _ = try Home.initialise(at: path, change: HomeSettingsChange(), now: Date())
        let outside = dir.child("shared.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: outside)
        try FileManager.default.createSymbolicLink(atPath: path + "/tmp/link", withDestinationPath: outside)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path + "/tmp")
        #expect(try Home.open(at: path).permissionNotice != nil)
        #expect(try Self.mode(outside) == 0o644)
    }
}
