import Testing
@testable import BetaServer

@Suite struct RouterTests {
    func name(of resolution: Router.Resolution) -> String {
        switch resolution {
        case .matched(let route, let parameters):
            "\(route.pattern) " + parameters.all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .methodNotAllowed(let allow): "405 " + allow.joined(separator: ",")
        case .notFound: "404"
        case .malformedPath: "400"
        }
    }

    var router: Router {
        var router = Router()
        let ok: Handler = { _, _ in Response() }
        router.get("/apps/:bundle/builds/:build", ok)
        router.get("/apps/new/builds/:build", ok)
        router.post("/apps/:bundle", ok)
        router.get("/files/*path", ok)
        router.delete("/apps/:bundle", ok)
        return router
    }

    @Test func parametersAreCapturedAndDecoded() {
        #expect(name(of: router.resolve(method: .get, path: "/apps/com.x%20y/builds/42"))
            == "/apps/:bundle/builds/:build build=42,bundle=com.x y")
    }

    @Test func literalSegmentsWinOverParametersWhateverTheOrder() {
        #expect(name(of: router.resolve(method: .get, path: "/apps/new/builds/1")) == "/apps/new/builds/:build build=1")
    }

    @Test func wildcardTakesTheRemainder() {
        #expect(name(of: router.resolve(method: .get, path: "/files/a/b/c.txt")) == "/files/*path path=a/b/c.txt")
    }

    @Test func headIsAnsweredByGetRoutes() {
        #expect(name(of: router.resolve(method: .head, path: "/files/x")) == "/files/*path path=x")
    }

    @Test func wrongMethodGives405WithAllow() {
        #expect(name(of: router.resolve(method: .put, path: "/apps/x")) == "405 POST,DELETE,OPTIONS")
        #expect(name(of: router.resolve(method: .post, path: "/files/x")) == "405 GET,HEAD,OPTIONS")
    }

    @Test func unknownPathsAre404AndHealthzExists() {
        #expect(name(of: router.resolve(method: .get, path: "/nowhere")) == "404")
        #expect(name(of: router.resolve(method: .get, path: "/apps/x/builds")) == "404")
        #expect(name(of: router.resolve(method: .get, path: "/healthz")) == "/healthz ")
        #expect(name(of: Router(healthCheck: false).resolve(method: .get, path: "/healthz")) == "404")
    }

    @Test func emptyParameterSegmentsDoNotMatch() {
        #expect(name(of: router.resolve(method: .get, path: "/apps//builds/1")) == "404")
    }

    @Test func malformedPercentEscapesAreRejected() {
        #expect(name(of: router.resolve(method: .get, path: "/files/%zz")) == "400")
    }

    @Test func reRegisteringAPatternReplacesTheHandler() {
        var router = Router(healthCheck: false)
        router.get("/a") { _, _ in .text("1") }
        router.get("/a") { _, _ in .text("2") }
        #expect(router.routes.count == 1)
    }
}

@Suite struct MiddlewareTests {
    @Test func errorMiddlewareMapsHTTPErrorsWithTheirHeaders() async throws {
        let chain = MiddlewareChain.build([ErrorMiddleware()])
        let context = Context(log: .discarding, configuration: ServerConfiguration()) { _, _ in
            throw HTTPError(.unauthorized, "token expired; sign in again", headers: ["WWW-Authenticate": "Bearer"])
        }
        let response = try await chain(Request(method: .get, target: "/"), context)
        #expect(response.status == .unauthorized)
        #expect(response.headers["WWW-Authenticate"] == "Bearer")
    }

    @Test func unexpectedErrorsBecome500WithoutDetailsAndAreLogged() async throws {
        struct Secret: Error {}
        let logged = LockedLines()
        let log = ServerLog(message: { logged.append($0) }, access: nil)
        let chain = MiddlewareChain.build([RequestIDMiddleware(trusted: try TrustedProxies([])), ErrorMiddleware()])
        let context = Context(log: log, configuration: ServerConfiguration()) { _, _ in throw Secret() }
        let response = try await chain(Request(method: .get, target: "/"), context)
        #expect(response.status == .internalServerError)
        let id = try #require(response.headers["X-Request-Id"])
        #expect(id.count == 16)
        #expect(logged.lines.contains { $0.contains(id) && $0.contains("Secret") })
    }

    @Test func requestIDsFromUntrustedPeersAreReplaced() async throws {
        let chain = MiddlewareChain.build([RequestIDMiddleware(trusted: try TrustedProxies(["10.0.0.1"]))])
        let context = Context.testing()
        let fromClient = Request(method: .get, target: "/", headers: ["X-Request-Id": "abc"], peerAddress: "192.0.2.1")
        #expect(try await chain(fromClient, context).headers["X-Request-Id"] != "abc")
        let fromProxy = Request(method: .get, target: "/", headers: ["X-Request-Id": "abc"], peerAddress: "10.0.0.1")
        #expect(try await chain(fromProxy, context).headers["X-Request-Id"] == "abc")
    }

    @Test func authHookCanDenyOrSetTheIdentity() async throws {
        let auth = AuthMiddleware { request, _ in
            request.headers["Authorization"] == "Bearer good"
                ? .allow(Identity(name: "tester")) : .deny(Response(status: .unauthorized))
        }
        let chain = MiddlewareChain.build([auth])
        let context = Context(log: .discarding, configuration: ServerConfiguration()) { _, context in
            .text(context.identity?.name ?? "nobody")
        }
        #expect(try await chain(Request(method: .get, target: "/"), context).status == .unauthorized)
        let allowed = try await chain(Request(method: .get, target: "/", headers: ["Authorization": "Bearer good"]), context)
        #expect(allowed.body.knownLength == 6)
    }

    @Test func accessLogLinesUseCombinedLogFormat() {
        let request = Request(method: .get, target: "/a?b", headers: ["Referer": "http://r/", "User-Agent": "ua \"x\""],
                              peerAddress: "192.0.2.7")
        let line = AccessLogMiddleware.line(request: request, response: .text("hello"), identity: Identity(name: "ann"),
                                            time: 784111777)
        #expect(line == "192.0.2.7 - ann [06/Nov/1994:08:49:37 +0000] \"GET /a?b HTTP/1.1\" 200 5 \"http://r/\" \"ua \\\"x\\\"\"")
    }

    @Test func compressionGzipsLargeTextBodiesOnlyWhenAccepted() async throws {
        let chain = MiddlewareChain.build([CompressionMiddleware()])
        let text = String(repeating: "compress me ", count: 200)
        let context = Context(log: .discarding, configuration: ServerConfiguration()) { _, _ in .text(text) }
        let gz = try await chain(Request(method: .get, target: "/", headers: ["Accept-Encoding": "gzip"]), context)
        #expect(gz.headers["Content-Encoding"] == "gzip")
        #expect((gz.body.knownLength ?? 0) < Int64(text.utf8.count))
        let plain = try await chain(Request(method: .get, target: "/"), context)
        #expect(plain.headers["Content-Encoding"] == nil)
        #expect(plain.headers["Vary"] == "Accept-Encoding")
    }
}

@Suite struct ForwardedHeadersTests {
    let headers: HTTPHeaders = ["Host": "internal:8080", "X-Forwarded-Proto": "https",
                                "X-Forwarded-Host": "beta.example.com", "X-Forwarded-For": "203.0.113.9, 10.0.0.5"]

    @Test func headersFromUntrustedPeersAreIgnored() throws {
        var request = Request(method: .get, target: "/", headers: headers, peerAddress: "198.51.100.1")
        ForwardedHeaders.apply(to: &request, trusted: try TrustedProxies(["10.0.0.0/8"]))
        #expect(request.scheme == "http")
        #expect(request.host == "internal:8080")
        #expect(request.clientAddress == "198.51.100.1")
    }

    @Test func headersFromTrustedProxiesAreHonoured() throws {
        var request = Request(method: .get, target: "/", headers: headers, peerAddress: "10.0.0.6")
        ForwardedHeaders.apply(to: &request, trusted: try TrustedProxies(["10.0.0.0/8"]))
        #expect(request.baseURL == "https://beta.example.com")
        #expect(request.clientAddress == "203.0.113.9")
    }

    @Test func trustedProxyBlocksMatchIPv4AndIPv6() throws {
        let trusted = try TrustedProxies(["127.0.0.1", "fd00::/8", "192.168.0.0/16"])
        #expect(trusted.contains("127.0.0.1"))
        #expect(!trusted.contains("127.0.0.2"))
        #expect(trusted.contains("fd12::1"))
        #expect(!trusted.contains("fe80::1"))
        #expect(trusted.contains("192.168.44.1"))
        #expect(throws: ServerError.invalidTrustedProxy("10.0.0.0/40")) { try TrustedProxies(["10.0.0.0/40"]) }
    }

    @Test func listenAddressesParseIPv4AndBracketedIPv6() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "[::1]:8080") == ListenAddress(host: "::1", port: 8080))
        #expect(try ListenAddress(parsing: "[::1]:8080").description == "[::1]:8080")
        for bad in ["::1:8080", "127.0.0.1", "host:80", "127.0.0.1:99999", "[::1]8080"] {
            #expect(throws: ServerError.invalidListenAddress(bad)) { try ListenAddress(parsing: bad) }
        }
    }
}

@Suite struct JSONHelperTests {
    struct Build: Codable, Equatable {
        var version: String
        var number: Int
    }

    @Test func jsonResponsesAreSortedAndTyped() throws {
        let response = try Response.json(Build(version: "1.2", number: 7), status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json")
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"number":7,"version":"1.2"}"#)
    }

    @Test func jsonBodiesDecodeOrFailWith400() throws {
        let good = Request(method: .post, target: "/", body: .bytes(Array(#"{"version":"2","number":3}"#.utf8)))
        #expect(try good.decodeJSON(Build.self) == Build(version: "2", number: 3))
        let bad = Request(method: .post, target: "/", body: .bytes(Array("{".utf8)))
        #expect { try bad.decodeJSON(Build.self) } throws: { ($0 as? HTTPError)?.status == .badRequest }
    }

    @Test func typedParametersReadAsTheirTypeAndAnythingElseIsANotFound() throws {
        let parameters: RouteParameters = ["id": "42", "name": "Ann", "big": "99999999999999999999"]
        #expect(try parameters.require("id", as: Int64.self) == 42)
        #expect(try parameters.require("name") == "Ann")
        #expect(throws: HTTPError.self) { try parameters.require("name", as: Int64.self) }
        do {
            _ = try parameters.require("big", as: Int64.self)
            Issue.record("a number past Int64 was read")
        } catch {
            #expect(error.status == .notFound)
            #expect(error.message.contains("no such big") && error.message.contains("whole number"), "\(error.message)")
        }
        do {
            _ = try parameters.require("missing")
            Issue.record("a parameter the route lacks was read")
        } catch {
            #expect(error.status == .internalServerError)
        }
    }
}
