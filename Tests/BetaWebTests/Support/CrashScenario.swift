import Foundation
import Testing
import TestSupport

/// Real crash reports sent to a live server the ways testers and apps send them, for the admin
/// API's and the dashboard's crash tests, waited for until the server has processed every one.
///
/// - `old`: App-exception.crash (EXC_CRASH), Bo's, added with `add-crash` ten days ago: the only
///   report of its group, which the overview's last-7-days list must leave out.
/// - `app309`: App-309.ips from the raw endpoint, its SDK user Ann's email (so Ann's); the App's
///   dSYM is not archived, so it stays `partial` until a test adds it.
/// - `beta`: the same crash made a crash of Beta's arm64 executable, so it is linked to the release
///   of that build.
/// - `hostile`: App-309 with a hostile exception type, reason, thread name and termination reason,
///   sent from Bo's tester page with a hostile description.
/// - `jetsam`: a JetsamEvent (low-memory); `other`: a cpu_resource report (other).
struct CrashScenario {
    var key: String
    var old: Int
    var app309: Int
    var beta: Int
    var hostile: Int
    var jetsam: Int
    var other: Int
    /// The bytes each report was sent as, by number.
    var sent: [Int: Data]

    static let hostileReason = "<script>alert('reason')</script>"
    static let hostileThread = "<img src=x onerror=alert('thread')>"
    static let hostileType = "EXC_<b>HOSTILE</b>"
    static let hostileDescription = "<script>alert('description')</script> & more"
    static let hostileASI = "<iframe src=javascript:alert(5)>"

    static func report(_ name: String) throws -> Data { try CrashUploads.report(name) }

    /// An `.ips` (a header line, then a JSON body) with its body changed by `change`.
    static func editedIPS(_ name: String, _ change: (inout [String: Any]) throws -> Void) throws -> Data {
        let text = String(decoding: try report(name), as: UTF8.self)
        let newline = try #require(text.firstIndex(of: "\n"))
        var body = try #require(try JSONSerialization.jsonObject(with: Data(text[text.index(after: newline)...].utf8)) as? [String: Any])
        try change(&body)
        let json = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .prettyPrinted])
        return Data(text[...newline].utf8) + json
    }

    /// App-309 with every text a page shows made hostile.
    static func hostileReport() throws -> Data {
        try editedIPS("App-309.ips") { body in
            var exception = try #require(body["exception"] as? [String: Any])
            exception["type"] = hostileType
            exception["message"] = hostileReason
            body["exception"] = exception
            var termination = try #require(body["termination"] as? [String: Any])
            termination["indicator"] = "\"><script>alert(4)</script>"
            body["termination"] = termination
            var threads = try #require(body["threads"] as? [[String: Any]])
            threads[0]["name"] = hostileThread
            body["threads"] = threads
            body["asi"] = ["App": [hostileASI]]
        }
    }

    /// Sends `data` to the raw endpoint; returns the report number.
    static func sendRaw(_ server: any WebEndpoint, key: String, _ data: Data, name: String, user: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let directory = try TemporaryDirectory("raw-crash")
        let file = directory.child(name)
        try data.write(to: URL(fileURLWithPath: file))
        var query = "key=\(key)&name=\(name)"
        if let user { query += "&user=\(user)" }
        let answer = try await server.fetch("\(server.base)/api/v1/crashes?\(query)", ["--max-time", "300", "-H", "Content-Type: application/octet-stream",
                                                                            "--data-binary", "@\(file)"])
        withExtendedLifetime(directory) {}
        #expect(answer.status == 202, "\(name): \(answer.status) \(answer.text)", sourceLocation: sourceLocation)
        let receipt = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], sourceLocation: sourceLocation)
        return try #require(receipt["id"] as? Int, sourceLocation: sourceLocation)
    }

    /// Beta's arm64 app executable UUID, from `show-release 1 --json`.
    static func betaUUID(_ cli: Betactl) throws -> String {
        let release = try #require(try cliJSON(cli, "show-release", "1", "--json") as? [String: Any])
        let slices = try #require(release["slices"] as? [[String: Any]])
        let app = try #require(slices.first { $0["kind"] as? String == "app" && $0["arch"] as? String == "arm64" })
        return try #require(app["uuid"] as? String)
    }

    /// Adds the old report, starts nothing: call before `serve`.
    static func addOldReport(_ fixture: AdminFixture) throws -> Int {
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86_400)
        let stamp = ISO8601DateFormatter().string(from: tenDaysAgo)
        let past = Betactl(home: fixture.cli.home, extraEnvironment: ["BETACTL_NOW": stamp])
        let added = try #require(try JSONSerialization.jsonObject(with: Data(past.ok(["add-crash", LocalFixtures.url("symbols/crashes/App-exception.crash").path,
                                                                                    "--tester", "bo@example.com", "--json"]).utf8)) as? [[String: Any]])
        return try #require(added.first?["id"] as? Int)
    }

    /// Sends the reports to `server` (whose home has the old report) and waits until all are processed.
    static func send(_ fixture: AdminFixture, _ server: any WebEndpoint, old: Int) async throws -> CrashScenario {
        let key = try await blocking { try fixture.web.crashKey() }
        var sent: [Int: Data] = [:]
        // Each its own incident: the server keeps one report per incident, and the fixtures share theirs.
        let app309Bytes = CrashIncidents.renumbered(try report("App-309.ips"), 0x309)
        let app309 = try await sendRaw(server, key: key, app309Bytes, name: "App-309.ips", user: "ann@example.com")
        sent[app309] = app309Bytes
        let uuid = try await blocking { try betaUUID(fixture.cli) }
        let betaBytes = Data(String(decoding: CrashIncidents.renumbered(try report("App-309.ips"), 0xBE7A), as: UTF8.self)
            .replacingOccurrences(of: "4c4c440b-5555-3144-a184-68d7aacd7c75", with: uuid.lowercased()).utf8)
        #expect(betaBytes != app309Bytes, "the App's UUID was replaced")
        let beta = try await sendRaw(server, key: key, betaBytes, name: "Beta.ips")
        sent[beta] = betaBytes
        let jetsamBytes = try LocalFixtures.data("inspect/ips/JetsamEvent-2024-05-06-101112.ips")
        let jetsam = try await sendRaw(server, key: key, jetsamBytes, name: "JetsamEvent.ips")
        sent[jetsam] = jetsamBytes
        let otherBytes = CrashIncidents.renumbered(try LocalFixtures.data("inspect/ips/App.cpu_resource-2024-05-06-101112.ips"), 0xC9)
        let other = try await sendRaw(server, key: key, otherBytes, name: "App.cpu_resource.ips")
        sent[other] = otherBytes

        // The hostile one from Bo's page, as a tester sends it.
        let hostileBytes = CrashIncidents.renumbered(try hostileReport(), 0x4057)
        let directory = try TemporaryDirectory("hostile")
        let file = directory.child("App-hostile.ips")
        try hostileBytes.write(to: URL(fileURLWithPath: file))
        let page = try await server.fetch("\(server.base)/t/\(fixture.web.boToken)/crashes",
                                  ["--max-time", "300", "-F", "report=@\(file)", "--form-string", "description=\(hostileDescription)"])
        #expect(page.status == 200, "\(page.text.prefix(300))")
        let hostile = try #require(page.text.range(of: "Received as report ").flatMap { Int(page.text[$0.upperBound...].prefix { $0.isNumber }) },
                                   "\(page.text.prefix(500))")
        sent[hostile] = hostileBytes
        withExtendedLifetime(directory) {}

        // Processing runs in the background: wait (generously: the machine is shared) until none is queued.
        let expected = Set([old, app309, beta, hostile, jetsam, other])
        #expect(expected.count == 6)
        try await waitUntil("every report is processed", seconds: 300) {
            let list = try await api(server, "GET", "/crashes?limit=500", token: fixture.read).object()
            let reports = (list["reports"] as? [[String: Any]]) ?? []
            return Set(reports.compactMap { $0["id"] as? Int }) == expected && reports.allSatisfy { $0["status"] as? String != "queued" }
        }
        return CrashScenario(key: key, old: old, app309: app309, beta: beta, hostile: hostile, jetsam: jetsam, other: other, sent: sent)
    }

    /// The signature key (crash group) of report `id`, from `crashes --json`.
    static func group(_ cli: Betactl, _ id: Int) throws -> String {
        let list = try #require(try cliJSON(cli, "crashes", "--json") as? [String: [[String: Any]]])
        return try #require(list["reports"]?.first { $0["id"] as? Int == id }?["group"] as? String, "report \(id) has a group")
    }
}

/// JSON as canonical bytes (sorted keys), to compare two documents whatever their layout.
func canonicalJSON(_ value: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
}
