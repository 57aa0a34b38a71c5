import Foundation
import Testing
import TestSupport

/// The crash commands through the built CLI: `add-crash` of every kind of report, the listings
/// and their filters, `show-crash` (symbolicated, low-memory, raw), and ingest keys.
@Suite struct CrashCommandTests {
    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    static func object(_ text: String) throws -> [String: Any] { try #require(try json(text) as? [String: Any]) }

    @Test func reportsOfEveryKindAreAddedListedFilteredAndShown() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com")
        let crash = LocalFixtures.url("symbols/crashes/App-309.ips").path
        let jetsam = LocalFixtures.url("inspect/ips/JetsamEvent-2024-05-06-101112.ips").path
        let cpu = LocalFixtures.url("inspect/ips/App.cpu_resource-2024-05-06-101112.ips").path

        let added = try #require(try Self.json(try cli.ok("add-crash", crash, jetsam, cpu, "--tester", "ann@example.com",
                                                          "--description", "It froze, then closed", "--json")) as? [[String: Any]])
        #expect(added.map { $0["status"] as? String } == ["partial", "low-memory", "other"], "processed before the command returns")
        #expect(added.map { $0["kind"] as? String } == ["crash", "low-memory", "other"])
        #expect(added.allSatisfy { ($0["tester"] as? [String: Any])?["name"] as? String == "Ann Lee" })
        let crashID = try #require(added[0]["id"] as? Int), jetsamID = try #require(added[1]["id"] as? Int)
        #expect((added[0]["missingSymbols"] as? [[String: Any]])?.first?["uuid"] as? String == "4C4C440B-5555-3144-A184-68D7AACD7C75")

        // The same file again is the same report; a file that is no report is refused whole.
        #expect(try cli.ok("add-crash", crash).contains("already stored as report \(crashID)"))
        let photo = LocalFixtures.url("formats/icons/cgbi_7x5_multiIDAT.png").path
        let refused = try cli.run("add-crash", crash, photo)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("cgbi_7x5_multiIDAT.png"))
        #expect(try cli.run("add-crash").status == 64)

        // Listings and filters.
        let all = try #require(try Self.object(try cli.ok("crashes", "--json"))["reports"] as? [[String: Any]])
        #expect(all.count == 3)
        let lowMemory = try #require(try Self.object(try cli.ok("crashes", "--status", "low-memory", "--json"))["reports"] as? [[String: Any]])
        #expect(lowMemory.map { $0["id"] as? Int } == [jetsamID])
        let group = try #require(added[0]["group"] as? String)
        let inGroup = try #require(try Self.object(try cli.ok("crashes", "--group", group, "--json"))["reports"] as? [[String: Any]])
        #expect(inGroup.map { $0["id"] as? Int } == [crashID])
        #expect(try cli.run("crashes", "--status", "fine").status == 65)
        #expect(try cli.run("crashes", "--release", "one").status == 64)
        #expect(try cli.ok("crashes").contains("App 1.2"))

        let groups = try #require(try Self.object(try cli.ok("crash-groups", "--json"))["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups[0]["signature"] as? String == group && groups[0]["count"] as? Int == 1 && groups[0]["representative"] as? Int == crashID)
        #expect((groups[0]["testers"] as? [Int])?.count == 1)
        #expect(groups[0]["firstSeen"] as? String != nil && groups[0]["lastSeen"] as? String != nil)

        // show-crash: the low-memory picture, the description, the original bytes.
        let memory = try cli.ok("show-crash", String(jetsamID))
        #expect(memory.contains("Largest processes (resident pages):"))
        #expect(memory.contains("Largest Process: App"))
        #expect(memory.contains("killed:") && memory.contains("Page Size:       16384 bytes"))
        #expect(memory.contains("description   It froze, then closed"))
        let raw = try cli.run("show-crash", String(crashID), "--raw")
        #expect(Data(raw.stdout.utf8) == (try Data(contentsOf: URL(fileURLWithPath: crash))))
        #expect(try cli.run("show-crash", "99").status != 0)
        #expect(try cli.run("show-crash", String(crashID), "--raw", "--json").status == 64)

        // The dSYM arrives: add-symbols symbolicates the waiting report and show-crash prints it.
        try cli.ok("add-symbols", LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path)
        let report = try Self.object(try cli.ok("show-crash", String(crashID), "--json"))
        #expect(report["status"] as? String == "symbolicated")
        #expect((report["missingSymbols"] as? [Any])?.isEmpty == true)
        let text = try cli.ok("show-crash", String(crashID))
        #expect(text.contains("Crash report \(crashID): symbolicated"))
        #expect(text.contains("(in App) (Fixture.swift:"), "Apple's layout, with the archived symbols")
        withExtendedLifetime(dir) {}
    }

    @Test func ingestKeysAreCreatedListedAndRevoked() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        #expect(try cli.ok("crash-key", "list").contains("No ingest keys yet"))
        let created = try Self.object(try cli.ok("crash-key", "create", "com.example.beta", "--json"))
        let key = try #require(created["key"] as? String)
        #expect(key.count >= 32, "a long random key")
        #expect(created["bundleID"] as? String == "com.example.beta" && created["revoked"] == nil)
        let text = try cli.ok("crash-key", "create", "com.example.other")
        #expect(text.contains("/api/2/apps/") && text.contains("/api/kscrash/") && text.contains("/api/v1/crashes?key="))
        #expect(try cli.ok("crash-key", "revoke", "1").contains("Revoked ingest key 1 for com.example.beta"))
        let keys = try #require(try Self.json(try cli.ok("crash-key", "list", "--json")) as? [[String: Any]])
        #expect(keys.count == 2)
        #expect(keys.first { $0["id"] as? Int == 1 }?["revoked"] as? String != nil)
        #expect(keys.first { $0["id"] as? Int == 2 }?["revoked"] == nil)
        #expect(try cli.ok("crash-key", "list").contains("revoked"))
        #expect(try cli.run("crash-key", "revoke", "nope").status != 0)
        #expect(try cli.run("crash-key", "rotate").status == 64)
        #expect(try cli.run("crash-key", "create").status == 64)
        withExtendedLifetime(dir) {}
    }
}
