import Foundation
import Synchronization
import Testing
import TestSupport
@testable import BetaServer

/// The in-process client answers as a connection would: routing, the route's head check and body
/// limit, spooling, the standard middleware and the engine's own rules, with every body collected.
@Suite struct InProcessClientTests {
    /// The outcomes a response's finish hook heard.
    final class Outcomes: Sendable {
        let list = Mutex<[ResponseOutcome]>([])
    }

    static func router(finished: Outcomes? = nil) -> Router {
        var router = Router()
        router.get("/hello/:name") { request, _ in .text("hi \(request.parameters["name"] ?? "")") }
        router.post("/echo", options: RouteOptions(bodyLimit: 1 << 20)) { request, _ in
            var response = Response.text(String(decoding: try request.body.bytes(), as: UTF8.self))
            if case .file = request.body { response.headers.set("X-Spooled", "yes") }
            return response
        }
        router.post("/guarded", options: RouteOptions(headCheck: { request in
            request.headers["Authorization"] == nil ? .text("who are you?", status: .unauthorized) : nil
        })) { _, _ in .text("in") }
        router.post("/truncated", options: RouteOptions(bodyLimit: 4, oversizedBody: .truncate(drainLimit: 100))) { request, _ in
            .text("\(request.bodyExceededLimit) \(String(decoding: try request.body.bytes(), as: UTF8.self))")
        }
        router.get("/stream") { _, _ in
            var response = Response(body: .stream { writer in
                for piece in ["one ", "two ", "three"] { try await writer.write(piece) }
            })
            response.onFinish = { outcome in finished?.list.withLock { $0.append(outcome) } }
            return response
        }
        router.get("/fail") { _, _ in throw HTTPError(.forbidden, "already there; use another name") }
        return router
    }

    @Test func routesWithParametersAnswerWithTheirBodyAndLength() async throws {
        let client = try InProcessClient(router: Self.router())
        let answer = await client.execute(.get, "/hello/ann%20lee")
        #expect(answer.status == .ok && answer.text == "hi ann lee")
        #expect(answer.headers["Content-Length"] == "10")
        #expect(answer.headers["X-Request-Id"]?.isEmpty == false, "the standard middleware ran")
        let head = await client.execute(.head, "/hello/ann")
        #expect(head.status == .ok && head.body.isEmpty && head.headers["Content-Length"] == "6")
    }

    @Test func missingRoutesWrongMethodsAndBadEscapesGetTheEnginesAnswers() async throws {
        let client = try InProcessClient(router: Self.router())
        #expect(await client.execute(.get, "/nothing").status == .notFound)
        let wrong = await client.execute(.delete, "/echo")
        #expect(wrong.status == .methodNotAllowed && wrong.headers["Allow"]?.contains("POST") == true)
        #expect(await client.execute(.options, "/echo").status == .noContent)
        let escape = await client.execute(.get, "/hello/%zz")
        #expect(escape.status == .badRequest && escape.text.contains("%25"))
        let thrown = await client.execute(.get, "/fail")
        #expect(thrown.status == .forbidden && thrown.text.contains("use another name"))
    }

    @Test func bodiesAreKeptInMemoryOrSpooledToAFileAsAConnectionWouldAndLimitsApply() async throws {
        let directory = try TemporaryDirectory("inprocess")
        var configuration = ServerConfiguration()
        configuration.temporaryDirectory = directory.path
        let client = try InProcessClient(configuration: configuration, router: Self.router())
        let small = await client.execute(.post, "/echo", body: Array("little".utf8))
        #expect(small.text == "little" && small.headers["X-Spooled"] == nil)
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: configuration.limits.bodyMemoryBytes + 1)
        let spooled = await client.execute(.post, "/echo", body: large)
        #expect(spooled.body == large && spooled.headers["X-Spooled"] == "yes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the spool file is gone after the request")
        let tooLarge = await client.execute(.post, "/echo", body: [UInt8](repeating: 0, count: (1 << 20) + 1))
        #expect(tooLarge.status == .contentTooLarge)
        #expect(await client.execute(.post, "/truncated", body: Array("abcdefgh".utf8)).text == "true abcd")
        #expect(await client.execute(.post, "/truncated", body: [UInt8](repeating: 0, count: 101)).status == .contentTooLarge)
    }

    @Test func aHeadCheckRefusesBeforeTheHandlerRuns() async throws {
        let client = try InProcessClient(router: Self.router())
        let refused = await client.execute(.post, "/guarded", body: Array("body".utf8))
        #expect(refused.status == .unauthorized && refused.text == "who are you?")
        #expect(await client.execute(.post, "/guarded", headers: ["Authorization": "Bearer x"]).text == "in")
    }

    @Test func streamedBodiesAreCollectedAndTheFinishHookHearsDelivery() async throws {
        let outcomes = Outcomes()
        let client = try InProcessClient(router: Self.router(finished: outcomes))
        let streamed = await client.execute(.get, "/stream")
        #expect(streamed.text == "one two three" && streamed.headers["Content-Length"] == nil)
        #expect(outcomes.list.withLock { $0 } == [.delivered])
    }

    @Test func forwardedHeadersAreBelievedOnlyFromATrustedProxy() async throws {
        var router = Router()
        router.get("/who") { request, _ in .text("\(request.clientAddress) \(request.scheme)") }
        var configuration = ServerConfiguration()
        configuration.trustedProxies = ["10.0.0.1"]
        let client = try InProcessClient(configuration: configuration, router: router)
        let headers: HTTPHeaders = ["X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"]
        #expect(await client.execute(.get, "/who", headers: headers, peerAddress: "10.0.0.1").text == "203.0.113.9 https")
        #expect(await client.execute(.get, "/who", headers: headers, peerAddress: "192.0.2.7").text == "192.0.2.7 http")
    }
}
