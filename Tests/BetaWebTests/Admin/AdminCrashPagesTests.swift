import Foundation
import Testing
import TestSupport

/// The dashboard's crash pages against a live server holding real reports sent through the
/// intake: the groups with their counts, releases and testers, a group's reports, a crash's frames
/// (symbolicated as soon as its dSYM is archived), a low-memory report's processes, the original
/// as inert plain text, the overview's last seven days, and every hostile text escaped.
@Suite(.serialized) struct AdminCrashPagesTests {
    @Test func crashPagesShowGroupsFramesMemoryAndTheOriginalEscaped() async throws {
        let fixture = try await AdminFixture.make()
        let old = try await blocking { try CrashScenario.addOldReport(fixture) }
        let server = try fixture.inProcess()
        defer { server.stop() }
        let scenario = try await CrashScenario.send(fixture, server, old: old)
        let cli = fixture.cli
        let group309 = try CrashScenario.group(cli, scenario.app309)
        let hostileGroup = try CrashScenario.group(cli, scenario.hostile)
        let oldGroup = try CrashScenario.group(cli, scenario.old)
        let release = try #require((try cliJSON(cli, "show-crash", String(scenario.beta), "--json") as? [String: Any])?["release"] as? Int)
        let browser = try DashboardClient(server)
        let anonymous = try await browser.get("/admin/crashes/\(scenario.hostile)/raw")
        #expect(anonymous.status == 303 && anonymous.headers["location"]?.hasPrefix("/admin/login?next=") == true, "the original needs a session")
        try await browser.logIn(fixture.read)

        func page(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let answer = try await browser.get(path)
            #expect(answer.status == 200, "\(path): \(answer.status)", sourceLocation: sourceLocation)
            #expect(answer.headers["cache-control"] == "private, no-store", sourceLocation: sourceLocation)
            for raw in ["<script>alert", "<img src=x", "<iframe", "<b>HOSTILE", "\"><script>"] {
                #expect(!answer.text.contains(raw), "\(path) shows \(raw) unescaped", sourceLocation: sourceLocation)
            }
            return answer.text
        }

        // The groups: each links to its page, with its count, releases and testers.
        let groups = try await page("/admin/crashes")
        #expect(groups.contains("href=\"/admin/crashes\" aria-current=\"page\""), "the navigation marks Crashes")
        for key in [group309, hostileGroup, oldGroup] { #expect(groups.contains("href=\"/admin/crashes/groups/\(key)\"")) }
        let row309 = try #require(Self.element(groups, id: "group-\(group309)"))
        #expect(row309.contains(">2</td>"), "App-309 and its Beta twin")
        #expect(row309.contains("href=\"/admin/releases/\(release)\"") && row309.contains("href=\"/admin/testers/1\">Ann Lee</a>"))
        #expect(groups.contains("EXC_&lt;b&gt;HOSTILE&lt;/b&gt;"), "the hostile exception type, escaped")
        let others = try #require(Self.element(groups, id: "other-reports"))
        #expect(others.contains("href=\"/admin/crashes/\(scenario.jetsam)\"") && others.contains("low-memory"))
        #expect(others.contains("href=\"/admin/crashes/\(scenario.other)\"") && !others.contains("href=\"/admin/crashes/\(scenario.app309)\""))

        // One group: its reports, each linking to its page.
        let group = try await page("/admin/crashes/groups/\(group309)")
        #expect(group.contains("href=\"/admin/crashes/\(scenario.app309)\"") && group.contains("href=\"/admin/crashes/\(scenario.beta)\""))
        #expect(!group.contains("href=\"/admin/crashes/\(scenario.hostile)\""))
        #expect(try await browser.get("/admin/crashes/groups/0123456789abcdef").status == 404)

        // The hostile crash: every text escaped, the original linked.
        let hostile = try await page("/admin/crashes/\(scenario.hostile)")
        #expect(hostile.contains("&lt;script&gt;alert(&#39;reason&#39;)&lt;/script&gt;"), "the exception's reason")
        #expect(hostile.contains("&lt;img src=x onerror=alert(&#39;thread&#39;)&gt;"), "the thread's name")
        #expect(hostile.contains("&lt;script&gt;alert(&#39;description&#39;)&lt;/script&gt; &amp; more"), "the tester's description")
        #expect(hostile.contains("&lt;iframe src=javascript:alert(5)&gt;"), "the application-specific information")
        #expect(hostile.contains("href=\"/admin/crashes/\(scenario.hostile)/raw\"") && hostile.contains("href=\"/admin/testers/2\">Bo Chen</a>"))
        #expect(hostile.contains("href=\"/admin/crashes/groups/\(hostileGroup)\""))
        // Its original is the bytes as sent, as plain text no browser sniffs into a page, never stored.
        let raw = try await browser.get("/admin/crashes/\(scenario.hostile)/raw")
        #expect(raw.status == 200 && raw.body == scenario.sent[scenario.hostile])
        #expect(raw.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(raw.headers["x-content-type-options"] == "nosniff" && raw.headers["cache-control"] == "private, no-store")
        #expect(try await browser.get("/admin/crashes/999/raw").status == 404)
        #expect(try await browser.get("/admin/crashes/999").status == 404)

        // App-309 without its dSYM: the app frames name their image and offset, and the page says what is missing.
        let partial = try await page("/admin/crashes/\(scenario.app309)")
        #expect(partial.contains("id=\"missing-symbols\"") && partial.contains("4C4C440B-5555-3144-A184-68D7AACD7C75"))
        #expect(partial.contains("App + 0x40b8") && !partial.contains("clamp_digit"))
        // The dSYM arrives: the page shows llvm-symbolizer's functions and lines at once, inlined ones marked.
        try await blocking { _ = try fixture.cli.ok(["add-symbols", LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path]) }
        let symbolicated = try await page("/admin/crashes/\(scenario.app309)")
        let crashed = try #require(Self.element(symbolicated, id: "thread-0"))
        for expected in ["clamp_digit", "inline.h:6", "accumulate", "inline.h:14", "parse_number", "parse.c:6", "parse_pair", "parse.c:13", "main.c:11",
                         "<span class=\"flag plain\">inlined</span>", "<tr class=\"app-frame\">"] {
            #expect(crashed.contains(expected), "the crashed thread shows \(expected)")
        }
        #expect(!symbolicated.contains("id=\"missing-symbols\""))
        #expect(symbolicated.contains("Counter.bump(by:)") && symbolicated.contains("Fixture.swift:12"), "the other thread, demangled")

        // A low-memory report: the largest processes, their sizes and why they were killed.
        let memory = try await page("/admin/crashes/\(scenario.jetsam)")
        let largest = try #require(Self.element(memory, id: "largest-processes"))
        #expect(largest.contains("App") && largest.contains("120000") && largest.contains("1875 MB") && largest.contains("per-process-limit"))
        let killed = try #require(Self.element(memory, id: "killed"))
        #expect(killed.contains("MobileSafari") && killed.contains("vm-pageshortage") && !killed.contains("SpringBoard"))
        #expect(memory.contains("16384 bytes"))
        let other = try await page("/admin/crashes/\(scenario.other)")
        #expect(other.contains("cpu_resource") && !other.contains("id=\"exception\"") && !other.contains("id=\"low-memory\""))

        // The overview lists the groups of the last 7 days only: not the one whose only report is ten days old.
        let overview = try await page("/admin")
        let recent = try #require(Self.element(overview, id: "recent-crashes"))
        #expect(recent.contains("Crash groups of the last 7 days"))
        // With the App's symbols, App-309 and the hostile crash were regrouped by their symbolicated
        // frames; the Beta twin kept the group they shared.
        let regrouped = try [scenario.app309, scenario.hostile, scenario.beta].map { try CrashScenario.group(cli, $0) }
        #expect(regrouped[0] != group309 && regrouped[2] == group309)
        for key in regrouped { #expect(recent.contains("href=\"/admin/crashes/groups/\(key)\""), "\(key) in \(recent)") }
        #expect(!recent.contains(oldGroup), "the EXC_CRASH group was last seen ten days ago")
        #expect(groups.contains("href=\"/admin/crashes/groups/\(oldGroup)\""), "the crashes page lists every group")
    }

    /// The element with `id`, from its start tag to the end of the enclosing section or table row.
    static func element(_ html: String, id: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        let tag = html[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
        let name = html[html.index(after: tag)...].prefix { $0.isLetter || $0.isNumber }
        guard let end = html.range(of: "</\(name)>", range: start.upperBound ..< html.endIndex) else { return nil }
        return String(html[tag ..< end.upperBound])
    }
}
