import Foundation
import Testing
import TestSupport

/// `GET /api/v1/apps/{bundleId}/latest`: an app's own "a new build is available" check, by a
/// live `betactl serve`, with the tester's token or the app's ingest key.
@Suite(.serialized) struct UpdateCheckTests {
    static func fixture(_ name: String) -> String { LocalFixtures.url("formats/app/\(name)").path }

    static func token(_ output: String) throws -> String {
        try #require(output.components(separatedBy: "/t/").last.map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) })
    }

    static func json(_ response: CurlResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    @Test func answersTheNewestOfferedReleaseA204WhenCurrentAndRefusesWhatIsNotOffered() async throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init", "--public-url", "https://beta.example.com")
        let ann = try Self.token(try cli.ok("add-tester", "Ann", "--email", "ann@example.com", "--group", "qa"))
        let bo = try Self.token(try cli.ok("add-tester", "Bo", "--group", "design"))
        try cli.ok("release", Self.fixture("Beta.ipa"), "--allow-missing-symbols", "--notes", "First")
        try cli.ok("release", Self.fixture("Beta.ipa"), "--allow-missing-symbols", "--again", "--group", "qa", "--notes", "For QA")
        let releases = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("releases", "--json").utf8)) as? [[String: Any]])
        let bundle = try #require(releases.first?["bundleId"] as? String)
        let build = try #require(releases.first?["build"] as? String)
        let server = try InProcessServer(homePath: cli.home)
        defer { server.stop() }
        let url = "\(server.base)/api/v1/apps/\(bundle)/latest"

        // A newer build: Ann (qa) gets release 2 with her links.
        let newer = try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(ann)"])
        #expect(newer.status == 200)
        let answer = Self.json(newer)
        #expect(answer["releaseId"] as? Int == 2 && answer["notes"] as? String == "For QA" && answer["build"] as? String == build)
        #expect(answer["installPageURL"] as? String == "https://beta.example.com/t/\(ann)/releases/2")
        #expect((answer["installURL"] as? String)?.hasPrefix("itms-services://?action=download-manifest&url=https%3A%2F%2Fbeta.example.com%2Ft%2F") == true)
        #expect((answer["size"] as? Int ?? 0) > 0 && answer["date"] as? String != nil)
        // Cacheable: the same answer again is 304 for its ETag.
        let etag = try #require(newer.headers["etag"])
        #expect(newer.headers["cache-control"] == "private, no-cache")
        let cached = try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(ann)", "-H", "If-None-Match: \(etag)"])
        #expect(cached.status == 304)
        // The same build: nothing newer.
        #expect(try await server.fetch(url + "?build=\(build)", ["-H", "X-Tester-Token: \(ann)"]).status == 204)
        // Bo (design) is not offered release 2: he gets release 1.
        #expect(Self.json(try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(bo)"]))["releaseId"] as? Int == 1)
        // Revoked: release 2 is no longer answered; with every release revoked, nothing is offered.
        try cli.ok("revoke", "2")
        #expect(Self.json(try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(ann)"]))["releaseId"] as? Int == 1)
        try cli.ok("revoke", "1")
        let none = try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(ann)"])
        #expect(none.status == 404 && none.text.contains("no release of \(bundle) is offered to Ann"))
        // An unknown bundle id.
        let unknown = try await server.fetch("\(server.base)/api/v1/apps/com.example.nothing/latest", ["-H", "X-Tester-Token: \(ann)"])
        #expect(unknown.status == 404 && unknown.text.contains("no release has the bundle id com.example.nothing"))
        // No credential, or a wrong one.
        #expect(try await server.fetch(url).status == 401)
        #expect(try await server.fetch(url, ["-H", "X-Tester-Token: not-a-token"]).status == 401)
    }

    @Test func anIngestKeyWithATesterGetsTheAnswerWithoutLinksAndChecksAreRateLimited() async throws {
        let directory = try TemporaryDirectory()
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init")
        let ann = try Self.token(try cli.ok("add-tester", "Ann", "--email", "ann@example.com"))
        try cli.ok("release", Self.fixture("Beta.ipa"), "--allow-missing-symbols")
        let releases = try #require(try JSONSerialization.jsonObject(with: Data(try cli.ok("releases", "--json").utf8)) as? [[String: Any]])
        let bundle = try #require(releases.first?["bundleId"] as? String)
        let key = try #require((try JSONSerialization.jsonObject(with: Data(try cli.ok("crash-key", "create", bundle, "--json").utf8)) as? [String: Any])?["key"] as? String)
        let server = try InProcessServer(homePath: cli.home)
        defer { server.stop() }
        let url = "\(server.base)/api/v1/apps/\(bundle)/latest"
        let byKey = try await server.fetch(url + "?build=0&key=\(key)&tester=ANN@example.com")
        #expect(byKey.status == 200)
        let answer = Self.json(byKey)
        #expect(answer["releaseId"] as? Int == 1 && answer["installPageURL"] == nil && answer["installURL"] == nil)
        #expect(!byKey.text.contains(ann), "the key ships inside the app: the tester's link is never in its answer")
        #expect(try await server.fetch(url + "?key=\(key)&tester=nobody@example.com").status == 401)
        #expect(try await server.fetch("\(server.base)/api/v1/apps/com.example.other/latest?key=\(key)&tester=1").status == 401, "a key is for its own app")
        // Many checks at once: the burst is 20, so 60 in one go meet 429 with Retry-After.
        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0 ..< 60 {
            let answer = try await server.fetch(url + "?build=0", ["-H", "X-Tester-Token: \(ann)"])
            statuses.append(answer.status)
            if answer.status == 429 { retryAfter = answer.headers["retry-after"] }
        }
        #expect(statuses.first == 200 && statuses.contains(429), "\(statuses)")
        #expect(retryAfter.flatMap { Int($0) }.map { $0 > 0 } == true, "a 429 says when to come back")
    }
}
