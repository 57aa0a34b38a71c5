import AppleFormats
import Foundation
import Testing
import TestSupport

/// The crash operations of `/api/v1` against a live server holding real reports sent through the
/// intake: each answers exactly what the CLI prints (`crashes`, `crash-groups`, `show-crash --json`
/// and `--raw`), with the CLI's filters, paging, ETags and problem+json errors, and a report
/// symbolicated once its dSYM arrives carries llvm-symbolizer's frames.
@Suite(.serialized) struct APICrashTests {
    @Test func crashReportsAndGroupsAnswerWhatTheCLIPrints() async throws {
        let fixture = try await AdminFixture.make()
        let old = try await blocking { try CrashScenario.addOldReport(fixture) }
        let server = try fixture.inProcess()
        defer { server.stop() }
        let scenario = try await CrashScenario.send(fixture, server, old: old)
        let cli = fixture.cli
        func get(_ path: String, _ extra: [String] = []) async throws -> CurlResponse {
            try await api(server, "GET", path, token: fixture.read, extra)
        }
        /// The CLI's `--json` and the API's answer, as canonical bytes.
        func same(_ path: String, _ arguments: [String], _ member: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let answer = try await get(path)
            #expect(answer.status == 200, "\(path): \(answer.text.prefix(300))", sourceLocation: sourceLocation)
            var printed = try JSONSerialization.jsonObject(with: Data(try cli.ok(arguments).utf8))
            var answered: Any = try answer.object(sourceLocation: sourceLocation)
            if let member {
                printed = try #require((printed as? [String: Any])?[member], sourceLocation: sourceLocation)
                answered = try #require((answered as? [String: Any])?[member], sourceLocation: sourceLocation)
            }
            #expect(try canonicalJSON(printed) == canonicalJSON(answered), "\(path) differs from betactl \(arguments.joined(separator: " "))",
                    sourceLocation: sourceLocation)
        }

        // Lists, with each of the CLI's filters.
        try await same("/crashes", ["crashes", "--json"], "reports")
        try await same("/crash-groups", ["crash-groups", "--json"], "groups")
        let group309 = try CrashScenario.group(cli, scenario.app309)
        try await same("/crashes?group=\(group309)", ["crashes", "--group", group309, "--json"], "reports")
        try await same("/crashes?status=low-memory", ["crashes", "--status", "low-memory", "--json"], "reports")
        let betaReport = try await get("/crashes/\(scenario.beta)").object()
        let release = try #require(betaReport["release"] as? Int, "the Beta crash is linked to its release")
        try await same("/crashes?release=\(release)", ["crashes", "--release", String(release), "--json"], "reports")
        let inRelease = try #require(try await get("/crashes?release=\(release)").object()["reports"] as? [[String: Any]])
        #expect(inRelease.map { $0["id"] as? Int } == [scenario.beta])
        try await same("/crashes?status=partial&group=\(group309)", ["crashes", "--status", "partial", "--group", group309, "--json"], "reports")

        // One group, and every report one by one with its original.
        let groups = try #require(try await get("/crash-groups").object()["groups"] as? [[String: Any]])
        // App-309 and its Beta twin crash alike (their app frames resolve to nothing), the hostile one
        // throws its own exception type, and the old report is an EXC_CRASH.
        #expect(groups.count == 3, "\(groups.map { $0["title"] ?? "" })")
        let group = try #require(groups.first { $0["signature"] as? String == group309 })
        #expect(try canonicalJSON(try await get("/crash-groups/\(group309)").object()) == canonicalJSON(group))
        #expect(group["testers"] as? [Int] == [1] && group["releases"] as? [Int] == [release] && group["count"] as? Int == 2)
        for (id, bytes) in scenario.sent.sorted(by: { $0.key < $1.key }) + [(scenario.old, try CrashScenario.report("App-exception.crash"))] {
            try await same("/crashes/\(id)", ["show-crash", String(id), "--json"])
            let raw = try await get("/crashes/\(id)/raw")
            #expect(raw.status == 200 && raw.body == bytes, "report \(id)'s original")
            #expect(raw.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(raw.headers["etag"] == "\"\(SHA256.hash([UInt8](bytes)).hex)\"")
            #expect(Data(try cli.run("show-crash", String(id), "--raw").stdout.utf8) == bytes)
        }
        let jetsam = try await get("/crashes/\(scenario.jetsam)").object()
        let memory = try #require(jetsam["lowMemory"] as? [String: Any])
        #expect(memory["pageSize"] as? Int == 16384 && memory["largestProcess"] as? String == "App")
        let processes = try #require(memory["processes"] as? [[String: Any]])
        #expect(processes.first?["name"] as? String == "App" && processes.first?["reason"] as? String == "per-process-limit")
        #expect(processes.contains { $0["name"] as? String == "MobileSafari" && $0["reason"] as? String == "vm-pageshortage" })
        #expect(jetsam["symbolicated"] == nil)
        let other = try await get("/crashes/\(scenario.other)").object()
        #expect(other["kind"] as? String == "other" && other["symbolicated"] == nil && other["lowMemory"] == nil)
        let hostile = try await get("/crashes/\(scenario.hostile)").object()
        let hostileThreads = try #require((hostile["symbolicated"] as? [String: Any])?["threads"] as? [[String: Any]])
        #expect(hostileThreads.first?["name"] as? String == CrashScenario.hostileThread, "JSON carries the text as it is")
        #expect((hostile["uploads"] as? [[String: Any]])?.first?["description"] as? String == CrashScenario.hostileDescription)

        // Pages: a cursor walks the list in the CLI's order, never repeating one.
        let all = try #require(try await get("/crashes").object()["reports"] as? [[String: Any]])
        var walked: [Int] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await get("/crashes?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
            let object = try page.object()
            walked += ((object["reports"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int }
            cursor = object["nextCursor"] as? String
            #expect((page.headers["link"] != nil) == (cursor != nil), "a Link header exactly when there is a next page")
            pages += 1
        } while cursor != nil && pages < 10
        #expect(walked == all.compactMap { $0["id"] as? Int } && pages == 3)
        let firstGroup = try await get("/crash-groups?limit=1").object()
        let second = try await get("/crash-groups?limit=3&cursor=\(try #require(firstGroup["nextCursor"] as? String))").object()
        #expect(((firstGroup["groups"] as? [[String: Any]]) ?? []).compactMap { $0["signature"] as? String }
            + ((second["groups"] as? [[String: Any]]) ?? []).compactMap { $0["signature"] as? String } == groups.compactMap { $0["signature"] as? String })

        // ETags.
        for path in ["/crashes", "/crash-groups", "/crashes/\(scenario.app309)", "/crashes/\(scenario.app309)/raw"] {
            let first = try await get(path)
            let tag = try #require(first.headers["etag"], "\(path)")
            #expect(try await get(path, ["-H", "If-None-Match: \(tag)"]).status == 304, "\(path)")
        }

        // Problems.
        try await get("/crashes/999").problem(404, "crash-not-found")
        try await get("/crashes/abc").problem(404, "crash-not-found")
        try await get("/crashes/999/raw").problem(404, "crash-not-found")
        try await get("/crash-groups/0123456789abcdef").problem(404, "crash-group-not-found")
        let badStatus = try await get("/crashes?status=fine").problem(400, "bad-request")
        #expect((badStatus["detail"] as? String)?.contains("\"fine\" is not a crash status") == true)
        try await get("/crashes?release=one").problem(400, "bad-request")
        try await get("/crashes?cursor=!").problem(400, "invalid-cursor")
        try await api(server, "GET", "/crashes", token: nil).problem(401, "unauthorized")
        // GET and POST share the path: reading needs a token, sending an ingest key.
        let resent = try await CrashScenario.sendRaw(server, key: scenario.key, CrashIncidents.renumbered(try CrashScenario.report("App-109.ips"), 0x109), name: "App-109.ips")
        #expect(resent > scenario.other)
        try await api(server, "POST", "/crashes", token: fixture.admin, ["--data-binary", "x"]).problem(401, "unauthorized")
    }

    @Test func aReportSymbolicatedOnceItsDSYMArrivesCarriesLLVMSymbolizersFrames() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let key = try await blocking { try fixture.web.crashKey() }
        let id = try await CrashScenario.sendRaw(server, key: key, try CrashScenario.report("App-309.ips"), name: "App-309.ips")
        var report: [String: Any] = [:]
        try await waitUntil("the report is processed", seconds: 300) {
            report = try await api(server, "GET", "/crashes/\(id)", token: fixture.read).object()
            return report["status"] as? String == "partial"
        }
        #expect((report["missingSymbols"] as? [[String: Any]])?.first?["uuid"] as? String == "4C4C440B-5555-3144-A184-68D7AACD7C75")
        let dsym = LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path
        try await blocking { _ = try fixture.cli.ok(["add-symbols", dsym]) }
        try await waitUntil("the report is symbolicated again", seconds: 300) {
            report = try await api(server, "GET", "/crashes/\(id)", token: fixture.read).object()
            return report["status"] as? String == "symbolicated"
        }
        let symbolicated = try #require(report["symbolicated"] as? [String: Any])
        // Exactly what `betactl symbolicate --json` makes of the original with the same dSYM.
        let directory = try TemporaryDirectory("symbolicate")
        let file = directory.child("App-309.ips")
        try CrashScenario.report("App-309.ips").write(to: URL(fileURLWithPath: file))
        let standalone = try JSONSerialization.jsonObject(with: Data(try fixture.cli.ok(["symbolicate", file, "--dsym", dsym, "--json"]).utf8))
        #expect(try canonicalJSON(symbolicated) == canonicalJSON(standalone))
        // And llvm-symbolizer's answer at each app frame (crashes/expected-frames.tsv).
        let threads = try #require(symbolicated["threads"] as? [[String: Any]])
        let rows = try String(contentsOf: LocalFixtures.url("symbols/crashes/expected-frames.tsv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count >= 6)
        for row in rows {
            let (thread, frame, depth) = (Int(row[0]) ?? -1, Int(row[1]) ?? -1, Int(row[2]) ?? -1)
            let frames = try #require(threads.first { $0["number"] as? Int == thread }?["frames"] as? [[String: Any]])
            let locations = try #require(frames.first { $0["number"] as? Int == frame }?["locations"] as? [[String: Any]], "\(row)")
            let location = try #require(depth < locations.count ? locations[depth] : nil, "\(row): \(locations)")
            #expect((location["rawFunction"] as? String ?? location["function"] as? String) == row[3], "\(row)")
            #expect(location["file"] as? String == row[4] && location["line"] as? Int == Int(row[5]), "\(row)")
        }
        let shown = try #require(try cliJSON(fixture.cli, "show-crash", String(id), "--json") as? [String: Any])
        #expect(try canonicalJSON(shown) == canonicalJSON(report))
        withExtendedLifetime(directory) {}
    }
}
