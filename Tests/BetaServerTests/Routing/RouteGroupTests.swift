import Testing
@testable import BetaServer

@Suite struct RouteGroupTests {
    /// Records which middleware ran, outermost first, in a response header.
    struct Tag: Middleware {
        let name: String
        func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
            var response = try await next(request, context)
            response.headers.set("X-Trail", name + (response.headers["X-Trail"].map { ">" + $0 } ?? ""))
            return response
        }
    }

    func call(_ router: Router, _ method: HTTPMethod, _ path: String) async throws -> Response? {
        guard case .matched(let route, let parameters) = router.resolve(method: method, path: path) else { return nil }
        var request = Request(method: method, target: path)
        request.parameters = parameters
        return try await route.handler(request, .testing())
    }

    @Test func groupRoutesGetThePrefixAndOnlyTheirOwnMiddleware() async throws {
        var router = Router()
        router.group("/t/:token", middleware: [Tag(name: "tester")]) { group in
            group.get("") { request, _ in .text("page \(request.parameters["token"] ?? "")") }
            group.get("/qr.svg") { _, _ in .text("qr") }
            group.group("/admin", middleware: [Tag(name: "inner")]) { inner in
                inner.post("/x") { _, _ in .text("x") }
            }
        }
        router.get("/open") { _, _ in .text("open") }
        let page = try #require(try await call(router, .get, "/t/abc"))
        #expect(page.headers["X-Trail"] == "tester")
        if case .bytes(let bytes) = page.body { #expect(String(decoding: bytes, as: UTF8.self) == "page abc") }
        #expect(try await call(router, .get, "/t/abc/qr.svg")?.headers["X-Trail"] == "tester")
        #expect(try await call(router, .post, "/t/abc/admin/x")?.headers["X-Trail"] == "tester>inner")
        #expect(try await call(router, .get, "/open")?.headers["X-Trail"] == nil)
        #expect(try await call(router, .get, "/t") == nil)
    }

    @Test func aCustomNotFoundHandlerAnswersUnmatchedPaths() async throws {
        var router = Router()
        router.notFound = { _, _ in .text("custom", status: .notFound) }
        #expect(router.notFound != nil)
        guard case .notFound = router.resolve(method: .get, path: "/nope") else {
            Issue.record("an unknown path should not match")
            return
        }
        let response = try await router.notFound?(Request(method: .get, target: "/nope"), .testing())
        #expect(response?.status == .notFound)
    }
}

@Suite struct WebMiddlewareTests {
    @Test func securityHeadersFillOnlyWhatTheResponseLeftUnset() async throws {
        let middleware = SecurityHeadersMiddleware(fields: [("Referrer-Policy", "no-referrer"), ("Cache-Control", "private, no-store")])
        let response = try await middleware.respond(to: Request(method: .get, target: "/"), context: .testing()) { _, _ in
            Response(status: .ok, headers: ["Cache-Control": "public, max-age=60"])
        }
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Referrer-Policy"] == "no-referrer")
        #expect(response.headers["Cache-Control"] == "public, max-age=60")
        let policy = try #require(response.headers["Content-Security-Policy"])
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
        #expect(response.headers["X-Frame-Options"] == "DENY")
    }

    @Test func responsesThatForbidCompressionStayUncompressed() async throws {
        let body = Array(repeating: UInt8(ascii: "a"), count: 4096)
        let request = Request(method: .get, target: "/", headers: ["Accept-Encoding": "gzip"])
        let plain: Response = {
            var response = Response.bytes(body, contentType: "text/html")
            response.allowsCompression = false
            return response
        }()
        let kept = try await CompressionMiddleware().respond(to: request, context: .testing()) { _, _ in plain }
        #expect(kept.headers["Content-Encoding"] == nil)
        let compressed = try await CompressionMiddleware().respond(to: request, context: .testing()) { _, _ in .bytes(body, contentType: "text/html") }
        #expect(compressed.headers["Content-Encoding"] == "gzip")
    }

    @Test func theAccessLogWritesRedactedTargets() {
        let request = Request(method: .get, target: "/t/SECRET/releases/1/app.ipa")
        let line = AccessLogMiddleware.line(request: request, response: Response(), identity: nil, time: 0) {
            $0.replacingOccurrences(of: "SECRET", with: "…")
        }
        #expect(line.contains("\"GET /t/…/releases/1/app.ipa HTTP/1.1\""))
        #expect(!line.contains("SECRET"))
    }
}
