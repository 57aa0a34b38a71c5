import Foundation
import Testing
import TestSupport
@testable import BetaKit
import BetaServer
@testable import BetaWeb

/// A tester's page lists the newest releases, a page at a time, with a link to older ones that
/// works without JavaScript; with many releases the page stays small.
@Suite struct TesterPagePagingTests {
    static func page(_ app: BetaWebApplication, token: String, query: String = "") async throws -> String {
        var request = Request(method: .get, target: "/t/\(token)\(query)", headers: ["Host": "beta.example.com"])
        request.parameters = ["token": token]
        let response = try await testerPage(app, request)
        guard case .bytes(let bytes) = response.body else { Issue.record("the page is not in memory"); return "" }
        #expect(response.status == .ok)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The tester page's handler behind the tester links' auth, as the router runs it.
    static func testerPage(_ app: BetaWebApplication, _ request: Request) async throws -> Response {
        try await TesterAuth(snapshots: app.snapshots).respond(to: request, context: .testing()) { request, context in
            try await app.tester.testerPage(request, context.require(TesterRequest.self))
        }
    }

    static func listed(_ html: String) -> [Int] {
        html.components(separatedBy: "id=\"release-").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test func theNewestTenAreListedAndOlderOnesFollowByTheirLinks() async throws {
        let directory = try TemporaryDirectory("paging")
        let now = Date()
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(publicURL: "https://beta.example.com"), now: now).home
        let tester = try Roster(home: home).addTester(NewTester(name: "Ann Lee", email: "ann@example.com"), now: now)
        let archive = Archive(home: home)
        for index in 1 ... 23 {
            _ = try archive.release(ReleaseRequest(path: WebFixture.app("Beta.ipa"), notes: "Build number \(index)",
                                                   policy: ReleasePolicy(allowMissingSymbols: true), again: true),
                                    devices: [], now: now.addingTimeInterval(Double(index - 30)))
        }
        _ = try archive.revoke(id: 20, now: now)
        let app = try BetaWebApplication(home: home, configuration: WebConfiguration())
        defer { app.stop() }

        let first = try await Self.page(app, token: tester.token)
        #expect(Self.listed(first) == [23, 22, 21, 19, 18, 17, 16, 15, 14, 13])
        let older = "https://beta.example.com/t/\(tester.token)?before=13"
        #expect(first.contains("<a id=\"older-builds\" href=\"\(older)\" rel=\"next\">Older builds</a>"))
        #expect(!first.contains("newest-builds"))

        let second = try await Self.page(app, token: tester.token, query: "?before=13")
        #expect(Self.listed(second) == Array((3 ... 12).reversed()))
        #expect(second.contains("href=\"https://beta.example.com/t/\(tester.token)?before=3\""))
        #expect(second.contains("<a id=\"newest-builds\" href=\"https://beta.example.com/t/\(tester.token)\">"))

        let last = try await Self.page(app, token: tester.token, query: "?before=3")
        #expect(Self.listed(last) == [2, 1])
        #expect(!last.contains("older-builds") && last.contains("newest-builds"))

        // Past the oldest release: an empty page that says so and leads back.
        let past = try await Self.page(app, token: tester.token, query: "?before=1")
        #expect(Self.listed(past).isEmpty && past.contains("No older builds are offered to you."))
        withExtendedLifetime(directory) {}
    }

    @Test func aCursorThatIsNotAReleaseNumberIsRefusedNamingTheFix() async throws {
        let directory = try TemporaryDirectory("paging")
        let home = try Home.initialise(at: directory.child("home"), change: HomeSettingsChange(), now: Date()).home
        let tester = try Roster(home: home).addTester(NewTester(name: "Bo Chen"), now: Date())
        let app = try BetaWebApplication(home: home, configuration: WebConfiguration())
        defer { app.stop() }
        for bad in ["abc", "0", "-4", "99999999999999999999"] {
            var request = Request(method: .get, target: "/t/\(tester.token)?before=\(bad)")
            request.parameters = ["token": tester.token]
            let error = await #expect(throws: HTTPError.self) { try await Self.testerPage(app, request) }
            #expect(error?.status == .badRequest && error?.message.contains("Older builds link") == true, "\(bad)")
        }
        withExtendedLifetime(directory) {}
    }
}
