import Foundation
import Testing
import TestSupport

@Suite struct TesterCommandTests {
    struct TesterJSON: Decodable {
        struct Device: Decodable { var udid: String; var status: String }
        var id: Int
        var name: String
        var email: String?
        var groups: [String]
        var page: String
        var devices: [Device]?
    }

    @Test func addTesterPrintsThePageURLUnderThePublicURL() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--public-url", "https://beta.example.com/")
        let output = try cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com", "--group", "qa", "--group", "design")
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("Page: ") })
        let url = String(line.dropFirst("Page: ".count))
        #expect(url.hasPrefix("https://beta.example.com/t/"))
        let token = url.dropFirst("https://beta.example.com/t/".count)
        #expect(token.count >= 22)  // at least 128 bits in base64url
        let shown = try JSONDecoder().decode(TesterJSON.self, from: Data(try cli.ok("show-tester", "ann@example.com", "--json").utf8))
        #expect(shown.page == url)
        #expect(shown.groups == ["design", "qa"])
    }

    @Test func testersListsAndRemoveTesterRemovesTheirDevices() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--membership-renewal", "2027-03-01")
        try cli.ok("add-tester", "Ann", "--email", "ann@example.com", "--device", "00008030-001A2B3C4D5E6F70", "--family", "iphone")
        try cli.ok("add-tester", "Bo")
        let table = try cli.ok("testers")
        #expect(table.contains("Ann") && table.contains("ann@example.com") && table.contains("Bo"))
        struct List: Decodable { var testers: [TesterJSON] }
        let list = try JSONDecoder().decode(List.self, from: Data(try cli.ok("testers", "--json").utf8))
        #expect(list.testers.map(\.name) == ["Ann", "Bo"])
        #expect(list.testers[0].devices?.map(\.udid) == ["00008030-001A2B3C4D5E6F70"])
        let removed = try cli.ok("remove-tester", "ann@example.com")
        #expect(removed.contains("Removed tester 1 (Ann)"))
        #expect(removed.contains("Removed 1 device; its slot stays used until the membership renews on 2027-03-01"))
        #expect(try cli.ok("testers").contains("Ann") == false)
        let devices = try cli.ok("devices")
        #expect(devices.contains("1/100"))
        #expect(devices.contains("1 removed still count"))
        #expect(try cli.run("show-tester", "ann@example.com").status == 1)
    }

    @Test func badTesterInputIsRefusedWithTheValue() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let email = try cli.run("add-tester", "Ann", "--email", "ann.example.com")
        #expect(email.status == 65)
        #expect(email.stderr.contains("\"ann.example.com\" is not a valid email address"))
        let name = try cli.run("add-tester", "  ")
        #expect(name.status == 65)
        #expect(name.stderr.contains("needs a name"))
        try cli.ok("add-tester", "Ann", "--email", "ann@example.com")
        let duplicate = try cli.run("add-tester", "Other", "--email", "Ann@Example.com")
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("already belongs to tester 1 (Ann)"))
        #expect(try cli.run("add-tester", "Cy", "--device", "00008030-001A2B3C4D5E6F70").status == 65)
    }

    @Test func devicesSaysWhenTheYearIsCountedFromInit() throws {
        let dir = try TemporaryDirectory()
        var cli = Betactl(home: dir.child("home"))
        cli.extraEnvironment["BETACTL_NOW"] = "2026-06-01"
        try cli.ok("init")
        cli.extraEnvironment["BETACTL_NOW"] = "2026-11-21"
        let output = try cli.ok("devices")
        #expect(output.contains("Membership year 2026-06-01 to 2027-06-01"))
        #expect(output.contains("no renewal date set"))
    }

    @Test func theDemoSeedsASandboxAndPrintsTesterPages() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("unused"))
        let output = try cli.ok("demo", "--dir", dir.child("demo"), "--no-serve")
        #expect(output.contains("/t/"))
        #expect(output.contains("iPhone"))
        #expect(!FileManager.default.fileExists(atPath: dir.child("unused")))
        let sandbox = Betactl(home: dir.child("demo"))
        #expect(try sandbox.ok("testers").contains("Ann Lee"))
    }
}
