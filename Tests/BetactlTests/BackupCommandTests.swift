import BetaKit
import Foundation
import Synchronization
import Testing
import TestSupport

/// `backup` while other commands write, then `verify`, then `restore` into a fresh home: all three
/// agree, and `verify` finds what can go wrong in a home.
@Suite struct BackupCommandTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/\(name)").path }

    struct TesterJSON: Decodable {
        var id: Int64
        var name: String
    }

    struct TestersJSON: Decodable {
        var testers: [TesterJSON]
    }

    struct DevicesJSON: Decodable {
        struct Device: Decodable {
            var udid: String
            var testerId: Int64?
        }
        var devices: [Device]
    }

    /// Set from the test, read by the writer task.
    final class StopFlag: Sendable {
        private let stopped = Mutex(false)
        func stop() { stopped.withLock { $0 = true } }
        var isStopped: Bool { stopped.withLock { $0 } }
    }

    /// A home with one release (archive blobs and symbols) and a few testers.
    static func populatedHome(_ dir: TemporaryDirectory) throws -> Betactl {
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("release", fixture("app/Beta.ipa"), "--dsym", fixture("app/Beta.app.dSYM.zip"),
                   "--dsym", fixture("app/BetaWidget.appex.dSYM.zip"))
        try cli.ok("import-profile", fixture("profiles/beta_adhoc.mobileprovision"))
        for index in 0..<3 { try cli.ok("add-tester", "Seed \(index)", "--device", udid(index, 0), "--family", "iphone") }
        return cli
    }

    static func udid(_ tester: Int, _ device: Int) -> String { String(format: "00008030-%08X%08X", tester, device) }

    /// Every blob file under a home, relative to it.
    static func blobFiles(_ home: String) throws -> Set<String> {
        var files = Set<String>()
        for folder in try FileManager.default.contentsOfDirectory(atPath: home + "/blobs") {
            for name in try FileManager.default.contentsOfDirectory(atPath: home + "/blobs/" + folder) { files.insert(folder + "/" + name) }
        }
        return files
    }

    @Test func backupWhileWritesRunThenVerifyThenRestoreAllAgree() async throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        // A writer adds testers with two devices each, in one transaction, until told to stop.
        let stop = StopFlag()
        let homePath = cli.home
        let writer = Task.detached { () -> Int in
            var added = 0
            // Families in turn, so however long the backup takes no family runs out of its 100 slots.
            let families = ["iphone", "ipad", "watch", "tv", "vision"]
            while !stop.isStopped && added < 240 {
                let index = 100 + added
                let result = try Betactl(home: homePath).run("add-tester", "Busy \(index)", "--family", families[added % families.count],
                                                             "--device", Self.udid(index, 0), "--device", Self.udid(index, 1))
                guard result.status == 0 else { throw CommandError(text: result.stderr) }
                added += 1
            }
            return added
        }
        // Let some writes land first, so the backup happens in the middle of them.
        try await Task.sleep(for: .milliseconds(300))
        let backup = dir.child("backup")
        let backedUp = try cli.run("backup", backup)
        // Keep writing until at least one more tester lands after the backup (on a loaded machine
        // that can take longer than any fixed pause).
        let inBackup = try JSONDecoder().decode(TestersJSON.self, from: Data(try Betactl(home: backup).ok("testers", "--json").utf8)).testers.count
        for _ in 0 ..< 600 {
            let now = try JSONDecoder().decode(TestersJSON.self, from: Data(try cli.ok("testers", "--json").utf8)).testers.count
            if now > inBackup { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        stop.stop()
        let added = try await writer.value
        #expect(backedUp.status == 0, "backup failed: \(backedUp.stderr)")
        #expect(backedUp.stdout.contains("hard-linked"))
        #expect(added >= 2, "only \(added) writes ran; the backup did not overlap them")

        // verify: the backup is whole.
        let verified = try Betactl(home: backup).run("verify")
        #expect(verified.status == 0, "verify: \(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("No problems found."))

        // restore into a fresh home, which verifies too.
        let restoredPath = dir.child("restored")
        let restore = try Betactl(home: restoredPath).run("restore", backup)
        #expect(restore.status == 0, "restore: \(restore.stderr)")
        let restored = Betactl(home: restoredPath)
        #expect(try restored.run("verify").status == 0)

        // All three agree: the same testers, devices, releases, profiles and blobs.
        for listing in [["testers", "--json"], ["devices", "--json"], ["releases", "--json"], ["profiles", "--json"], ["symbols", "--json"]] {
            // Symbol listings name files inside each home.
            let inBackup = try Betactl(home: backup).run(listing).stdout.replacingOccurrences(of: backup, with: "HOME")
            let inRestored = try restored.run(listing).stdout.replacingOccurrences(of: restoredPath, with: "HOME")
            #expect(!inBackup.isEmpty)
            #expect(inBackup == inRestored, "\(listing[0]) differ between the backup and the restored home")
        }
        #expect(try Self.blobFiles(backup) == (try Self.blobFiles(restoredPath)))
        // The snapshot is consistent: every tester came with both of its devices, and the
        // backup holds a prefix of what the live home holds now.
        let testers = try JSONDecoder().decode(TestersJSON.self, from: Data(try restored.ok("testers", "--json").utf8)).testers
        let live = try JSONDecoder().decode(TestersJSON.self, from: Data(try cli.ok("testers", "--json").utf8)).testers
        let devices = try JSONDecoder().decode(DevicesJSON.self, from: Data(try restored.ok("devices", "--json").utf8)).devices
        for tester in testers where tester.name.hasPrefix("Busy") {
            #expect(devices.filter { $0.testerId == tester.id }.count == 2, "\(tester.name) lost a device in the backup")
        }
        #expect(Set(testers.map(\.id)).isSubset(of: Set(live.map(\.id))))
        #expect(testers.count >= 3 && testers.count < live.count, "backup \(testers.count), live \(live.count)")
    }

    struct CommandError: Error { var text: String }

    @Test func verifyFindsADamagedBlobAMissingOneAndAnOrphan() throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        let home = dir.child("home")
        #expect(try cli.run("verify").status == 0)
        let release = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(try cli.ok("releases", "--json").utf8))
        let package = try #require(release.first?["sha256"]?.string)
        let packagePath = "\(home)/blobs/\(package.prefix(2))/\(package)"
        // One flipped byte in the middle of the archived ipa.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: packagePath))
        try handle.seek(toOffset: 100)
        let original = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: [original ^ 0x01])
        try handle.close()
        let damaged = try cli.run("verify")
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("problem       blob \(package) is damaged: its content has SHA-256 "))
        #expect(damaged.stderr.contains("\(home) has 1 problem, listed above"))

        // A blob gone, and a file nobody refers to.
        let symbols = try JSONDecoder().decode([String: [[String: JSONValue]]].self, from: Data(try cli.ok("symbols", "--json").utf8))
        let symbolPath = try #require(symbols["symbols"]?.first?["path"]?.string)
        try FileManager.default.removeItem(atPath: symbolPath)
        let orphan = "\(home)/blobs/00/" + String(repeating: "0", count: 64)
        try FileManager.default.createDirectory(atPath: "\(home)/blobs/00", withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: URL(fileURLWithPath: orphan))
        let worse = try cli.run("verify")
        #expect(worse.status == 1)
        let missingHex = (symbolPath as NSString).lastPathComponent
        #expect(worse.stdout.contains("blob \(missingHex) is referenced by the database but missing from \(home)/blobs"))
        #expect(worse.stdout.contains("\(orphan) is an orphan"))
        #expect(worse.stderr.contains("has 3 problems"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func verifyFindsAReleasedExecutableWhoseSymbolsWereNeverRecordedMissing() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        // Released without dSYMs: the slices are recorded as released without symbols, and that is fine.
        try cli.ok("release", Self.fixture("app/Beta.ipa"), "--allow-missing-symbols")
        let clean = try cli.run("verify")
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("3 executable slices were released without them, as recorded"))
        // Forget one record, as a damaged database would.
        let database = dir.child("home/betactl.sqlite")
        let sql = "DELETE FROM release_missing_symbols WHERE rowid = (SELECT min(rowid) FROM release_missing_symbols);"
        #expect(try await runTool("sqlite3", [database, sql]).status == 0)
        let result = try cli.run("verify")
        #expect(result.status == 1)
        #expect(result.stdout.contains("has no symbols, and none were recorded missing when it was released"))
        #expect(result.stdout.contains("release 1: "))
    }

    @Test func backupAndRestoreRefuseWhatWouldLoseData() throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        let home = dir.child("home")
        // Not into a folder that holds something, nor into the home itself.
        let occupied = dir.child("occupied")
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: occupied + "/notes.txt"))
        let intoOccupied = try cli.run("backup", occupied)
        #expect(intoOccupied.status == 1)
        #expect(intoOccupied.stderr.contains("\(occupied) already exists and is not an empty folder"))
        #expect(try String(contentsOfFile: occupied + "/notes.txt", encoding: .utf8) == "keep me")
        let inside = try cli.run("backup", home + "/tmp/backup")
        #expect(inside.status == 1)
        #expect(inside.stderr.contains("is inside the home"))
        // An empty folder is fine.
        let empty = dir.child("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try cli.ok("backup", empty)

        // restore refuses to replace a live home without --force...
        let other = Betactl(home: dir.child("other"))
        try other.ok("init")
        try other.ok("add-tester", "Only Here")
        let refused = try other.run("restore", empty)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("holds a betactl home; stop any server using it and pass --force"))
        #expect(try other.ok("testers").contains("Only Here"))
        // ...and with --force keeps the one it replaces.
        let forced = try other.run("restore", empty, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(!(try other.ok("testers")).contains("Only Here"))
        let kept = try #require(FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("other.replaced-") })
        #expect(try Betactl(home: dir.child(kept)).ok("testers").contains("Only Here"))
        #expect(forced.stdout.contains("The home it replaced was moved to \(dir.child(kept))"))
        // No hidden staging folders are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func restoreRefusesADamagedBackup() throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        let backup = dir.child("backup")
        try cli.ok("backup", backup)
        // A hard-linked blob is the home's own file: remove the link in the backup only.
        let blob = try #require(try Self.blobFiles(backup).sorted().first)
        try FileManager.default.removeItem(atPath: backup + "/blobs/" + blob)
        let target = dir.child("fresh")
        let result = try Betactl(home: target).run("restore", backup)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the backup at \(backup) has 1 problem; see them with `betactl verify --home \(backup)`"))
        #expect(!FileManager.default.fileExists(atPath: target))
        let nothing = try Betactl(home: target).run("restore", dir.child("no-such-backup"))
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("\(dir.child("no-such-backup")) is not a betactl backup (it holds no betactl.sqlite)"))
    }

    @Test func everythingBetactlWritesIsPrivate() throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        try cli.ok("export-devices", "--output", dir.child("devices.txt"))
        try cli.ok("backup", dir.child("backup"))
        for root in [dir.child("home"), dir.child("backup")] {
            let enumerator = try #require(FileManager.default.enumerator(atPath: root))
            var loose: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + relative)
                let mode = try #require(attributes[.posixPermissions] as? Int)
                let expected = attributes[.type] as? FileAttributeType == .typeDirectory ? 0o700 : 0o600
                if mode != expected { loose.append("\(relative): \(String(mode, radix: 8))") }
            }
            #expect(loose.isEmpty, "in \(root): \(loose)")
        }
        let output = try FileManager.default.attributesOfItem(atPath: dir.child("devices.txt"))
        #expect(output[.posixPermissions] as? Int == 0o600)
    }

    @Test func aHomeOthersCanReadIsTightenedWithAOneLineNotice() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        for (relative, mode) in [("", 0o755), ("/betactl.sqlite", 0o644), ("/tmp", 0o777)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: dir.child("home") + relative)
        }
        let first = try cli.run("testers")
        #expect(first.status == 0)
        let notes = first.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        #expect(notes == ["note: other users could read 1 file and 2 folders in \(dir.child("home")); betactl made them private (folders 0700, files 0600), as it keeps its whole home"])
        #expect(!(try cli.run("testers")).stderr.contains("note:"))
    }
}

/// Just enough JSON to pick values out of command output.
enum JSONValue: Decodable {
    case string(String)
    case other

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = (try? container.decode(String.self)).map(JSONValue.string) ?? .other
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension BackupCommandTests {
    /// Another file system than the temporary directory's, where hard links cannot reach.
    static var otherFileSystem: String? {
        let candidate = "/dev/shm"
        guard let here = try? FileManager.default.attributesOfItem(atPath: FileManager.default.temporaryDirectory.path)[.systemNumber] as? Int,
              let there = try? FileManager.default.attributesOfItem(atPath: candidate)[.systemNumber] as? Int,
              here != there, FileManager.default.isWritableFile(atPath: candidate) else { return nil }
        return candidate
    }

    @Test(.enabled(if: otherFileSystem != nil))
    func aBackupOnAnotherFileSystemCopiesAndChecksEveryBlob() throws {
        let dir = try TemporaryDirectory()
        let cli = try Self.populatedHome(dir)
        let destination = try #require(Self.otherFileSystem) + "/betactl-backup-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let output = try cli.ok("backup", destination)
        let blobs = try Self.blobFiles(destination)
        #expect(blobs == (try Self.blobFiles(dir.child("home"))))
        #expect(output.contains("\(blobs.count) referenced: 0 hard-linked, \(blobs.count) copied"))
        #expect(try Betactl(home: destination).run("verify").status == 0)
        // Copies, not links: damaging the home leaves the backup whole.
        let first = try #require(blobs.sorted().first)
        try Data("damage".utf8).write(to: URL(fileURLWithPath: dir.child("home/blobs/" + first)))
        #expect(try cli.run("verify").status == 1)
        #expect(try Betactl(home: destination).run("verify").status == 0)
    }

    @Test func aBackupIntoAFolderThatCannotExistNamesIt() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let result = try cli.run("backup", dir.child("no/such/parent/backup"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot create directory \(dir.child("no/such/parent/backup")): No such file or directory"))
    }
}
