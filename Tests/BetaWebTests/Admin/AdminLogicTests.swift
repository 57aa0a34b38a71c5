import AppleFormats
@testable import BetaKit
@testable import BetaServer
@testable import BetaWeb
import Foundation
import Testing

/// The pieces of the API and the dashboard that need no server: cursors, ETag matching, the login
/// throttle, safe names and redirects, cookies, problem kinds.
@Suite struct AdminLogicTests {
    func request(_ target: String, headers: HTTPHeaders = [:]) -> Request { Request(method: .get, target: target, headers: headers) }

    @Test func cursorsNameTheLastItemSoPagesNeitherRepeatNorSkipWhenTheListChanges() throws {
        var items = Array(1 ... 7).map { Int64($0) }
        let first = try Page(items, request: request("/x?limit=3")) { PageKey(number: $0) }
        #expect(first.items == [1, 2, 3])
        let cursor = try #require(first.nextCursor)
        #expect(first.linkHeader(request("/x?limit=3")) == "</x?cursor=\(cursor)&limit=3>; rel=\"next\"")
        // An item before the cursor is removed and one is added: the next page starts after item 3.
        items.removeFirst()
        items.append(8)
        let second = try Page(items, request: request("/x?limit=3&cursor=\(cursor)")) { PageKey(number: $0) }
        #expect(second.items == [4, 5, 6])
        let third = try Page(items, request: request("/x?limit=3&cursor=\(try #require(second.nextCursor))")) { PageKey(number: $0) }
        #expect(third.items == [7, 8] && third.nextCursor == nil && third.linkHeader(request("/x")) == nil)
        #expect(try Page(items, request: request("/x")) { PageKey(number: $0) }.items.count == 7)
        for bad in ["x", "!!!!", "YQ", String(repeating: "A", count: 2000), "Yz", "YzEu"] {
            #expect(throws: APIProblem.self) { try Page(items, request: self.request("/x?cursor=\(bad)")) { PageKey(number: $0) } }
        }
        for bad in ["0", "-1", "501", "ten", ""] {
            #expect(throws: APIProblem.self) { try Page(items, request: self.request("/x?limit=\(bad)")) { PageKey(number: $0) } }
        }
    }

    @Test func pageKeysOrderByNumberThenTextAndSurviveTheirCursor() throws {
        let keys = [PageKey(number: -5, text: "b"), PageKey(number: -5, text: "a\u{0}z"), PageKey(number: 3), PageKey(number: 3, text: "é")]
        #expect(keys.sorted() == [keys[1], keys[0], keys[2], keys[3]])
        for key in keys {
            let round = try #require(PageKey(cursor: key.cursor))
            #expect(round == key)
        }
        #expect(Base64URL.decode("aGVsbG8") == Array("hello".utf8) && Base64URL.decode("aGVsbG8=") == nil && Base64URL.decode("a") == nil)
    }

    @Test func etagsMatchWeaklyAcrossTheCompressedCopy() {
        let tag = "\"abc\""
        #expect(ConditionalGetMiddleware.matches(["\"abc\""], etag: tag))
        #expect(ConditionalGetMiddleware.matches(["W/\"abc\""], etag: tag))
        #expect(ConditionalGetMiddleware.matches(["\"abc-gz\""], etag: tag))
        #expect(ConditionalGetMiddleware.matches(["\"x\"", "*"], etag: tag))
        #expect(!ConditionalGetMiddleware.matches(["\"abcd\"", "abc"], etag: tag))
    }

    @Test func theLoginThrottleBlocksAnAddressAfterItsFailuresUntilTheOldestLeavesTheWindow() {
        let throttle = LoginThrottle(limit: 3, window: .seconds(60), capacity: 4)
        let start = ContinuousClock.now
        for second in 0 ..< 3 {
            #expect(throttle.wait(for: "a", now: start + .seconds(second)) == nil)
            throttle.recordFailure(from: "a", now: start + .seconds(second))
        }
        #expect(throttle.wait(for: "a", now: start + .seconds(10)) == .seconds(50))
        #expect(throttle.wait(for: "b", now: start + .seconds(10)) == nil)
        #expect(throttle.wait(for: "a", now: start + .seconds(60)) == nil, "the first failure left the window")
        throttle.recordSuccess(from: "a")
        #expect(throttle.wait(for: "a", now: start + .seconds(2)) == nil)
        // Many addresses cannot grow it beyond its capacity.
        for index in 0 ..< 100 { throttle.recordFailure(from: "x\(index)", now: start + .seconds(index)) }
        #expect(throttle.wait(for: "x99", now: start + .seconds(100)) == nil)
    }

    @Test func uploadedFileNamesAreMadeSafeAndKeepTheExtensionIngestNeeds() {
        #expect(ReleaseUpload.safeFileName("MyApp.ipa", field: "ipa") == "MyApp.ipa")
        #expect(ReleaseUpload.safeFileName("../../etc/passwd", field: "ipa") == "passwd.ipa")
        #expect(ReleaseUpload.safeFileName(".hidden", field: "dsym") == "hidden")
        #expect(ReleaseUpload.safeFileName("Ünïcode app.IPA", field: "ipa") == "_n_code_app.IPA")
        #expect(ReleaseUpload.safeFileName(nil, field: "ipa") == "upload.ipa")
        #expect(ReleaseUpload.safeFileName(nil, field: "xcarchive") == "upload.xcarchive.zip")
        #expect(ReleaseUpload.safeFileName("App.xcarchive", field: "xcarchive") == "App.xcarchive.zip")
        #expect(ReleaseUpload.safeFileName(String(repeating: "a", count: 500), field: "dsym").count == 120)
    }

    @Test func afterLoginOnlyDashboardPathsAreFollowed() {
        #expect(AdminController.safeNext("/admin/releases?notice=x") == "/admin/releases?notice=x")
        for bad in [nil, "https://evil.example/admin", "//evil.example/admin", "/admin\\..\\x", "/t/secret", "/admin/\u{0}", "/admin/a b"] {
            #expect(AdminController.safeNext(bad) == "/admin", "\(bad ?? "nil")")
        }
    }

    @Test func cookiesAreReadFromEveryCookieHeaderAndWrittenWithTheirFlags() {
        let request = request("/admin", headers: HTTPHeaders([("Cookie", "a=1; betactl_session=\"abc\""), ("Cookie", "betactl_login=xyz")]))
        #expect(AdminCookies.value("betactl_session", in: request) == "abc")
        #expect(AdminCookies.value("betactl_login", in: request) == "xyz")
        #expect(AdminCookies.value("betactl", in: request) == nil)
        #expect(AdminCookies.header("s", "v", path: "/admin", maxAge: 10, secure: true) == "s=v; Path=/admin; Max-Age=10; HttpOnly; SameSite=Strict; Secure")
        #expect(constantTimeEquals("abc", "abc") && !constantTimeEquals("abc", "abd") && !constantTimeEquals("abc", "ab"))
    }

    @Test func everyProblemKindHasItsOwnTypeAndAnErrorStatus() throws {
        let types = APIProblem.Kind.allCases.map(\.typeURI)
        #expect(Set(types).count == types.count)
        #expect(APIProblem.Kind.allCases.allSatisfy { $0.status.code >= 400 && !$0.title.isEmpty })
        let udid = try DeviceIdentifier("00008030-0000000000000A01")
        let renews = try #require(CalendarDate(iso: "2027-03-01"))
        let limit = APIProblem.roster(.limitReached(udid, family: .iphone, used: 100, limit: 100, removedStillCounting: 2, renews: renews))
        #expect(limit.kind == .deviceLimitReached && limit.kind.status.code == 409 && limit.extensions["renews"] == .string("2027-03-01"))
        let refused = APIProblem.from(ArchiveError.refused(ReleaseValidation(refusals: [.unsigned(executable: "Payload/A.app/A")], warnings: [], missingSymbols: [])))
        #expect(refused?.kind == .buildRefused && refused?.errors.count == 1)
        #expect(APIProblem.from(CancellationError()) == nil)
        #expect(WebActions.apiWording("pass the build's dSYMs with --dsym (or release the .xcarchive), or --allow-missing-symbols to release without them")
                == "send the build's dSYMs as dsym parts (or release the .xcarchive), or allowMissingSymbols=true to release without them")
    }
}
