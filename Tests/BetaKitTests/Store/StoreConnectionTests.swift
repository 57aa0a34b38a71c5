import Foundation
import Testing
import TestSupport
@testable import BetaKit

@Suite struct StoreConnectionTests {
    @Test func readsNeverWaitForAWriteInProgress() async throws {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: Date()).home
        let writerDone = Locked(false)
        let writerInside = Locked(false)
        let readDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            _ = try? home.store.write { db -> Void in
                try db.query("INSERT INTO settings (key, value) VALUES ('probe', 'x')")
                writerInside.withLock { $0 = true }
                // The write stays open until the read is over (a read waiting for the writer
                // would find it still open after a minute, and the test would fail).
                _ = readDone.wait(timeout: .now() + 60)
            }
            writerDone.withLock { $0 = true }
        }
        writer.start()
        while !writerInside.value { try await Task.sleep(for: .milliseconds(1)) }
        // The read runs on its own read-only connection: it sees the last commit, not the write in
        // progress, and it returns while the writer still holds the write connection.
        let value = try home.store.read { db in try db.queryOne("SELECT value FROM settings WHERE key = 'probe'")?.string(0) }
        #expect(value == nil)
        #expect(!writerDone.value, "the read waited for the writer")
        readDone.signal()
        while !writerDone.value { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try home.store.read { db in try db.queryOne("SELECT value FROM settings WHERE key = 'probe'")?.string(0) } == "x")
    }

    @Test func aReadConnectionCannotWrite() throws {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: Date()).home
        #expect(throws: SQLiteError.self) {
            try home.store.read { db in try db.query("INSERT INTO settings (key, value) VALUES ('sneaky', 'x')") }
        }
    }

    @Test func theChangeWatcherSeesCommitsFromAnyConnection() throws {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: Date()).home
        let watcher = try StoreChangeWatcher(store: home.store)
        #expect(try !watcher.hasChanged())
        #expect(try !watcher.hasChanged())
        // A commit by another connection of this process (as the server's own writes are)…
        try home.store.write { db -> Void in try db.query("INSERT INTO settings (key, value) VALUES ('a', '1')") }
        #expect(try watcher.hasChanged())
        #expect(try !watcher.hasChanged())
        // …and by another process's connection, here a second Store on the same file.
        let other = try Store(path: home.store.path, create: false)
        try other.write { db -> Void in try db.query("INSERT INTO settings (key, value) VALUES ('b', '2')") }
        #expect(try watcher.hasChanged())
    }
}
