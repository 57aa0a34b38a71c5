import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Routes that answer oversized bodies themselves (`RouteOptions.OversizedBody.truncate`): the
/// handler gets the first `bodyLimit` bytes and a flag; only beyond the drain limit is it a 413.
@Suite struct OversizedBodyTests {
    static func router() -> Router {
        var router = Router()
        let truncate = RouteOptions(bodyLimit: 1000, execution: .eventLoop, oversizedBody: .truncate(drainLimit: 2 << 20))
        router.post("/reply", options: truncate) { request, _ in
            let bytes = try request.body.bytes()
            return Response(status: .movedPermanently, headers: ["Location": "/result?exceeded=\(request.bodyExceededLimit)&kept=\(bytes.count)",
                                                                 "Content-Type": "text/plain"],
                            body: .bytes(bytes.prefix(16).map { $0 }))
        }
        router.post("/strict", options: RouteOptions(bodyLimit: 1000)) { request, _ in .text("\(request.body.count)") }
        return router
    }

    func post(_ server: TestServer, _ path: String, _ body: [UInt8], chunked: Bool = false) async throws -> CurlResponse {
        let directory = try TemporaryDirectory("oversized")
        let file = try directory.write("body", body)
        var arguments = ["--data-binary", "@\(file)", "-H", "Content-Type: application/pkcs7-signature"]
        if chunked { arguments += ["-H", "Transfer-Encoding: chunked"] }
        return try await curl("\(server.base)\(path)", arguments)
    }

    @Test func aBodyOverTheLimitReachesTheHandlerCutToTheLimitAndFlagged() async throws {
        let server = try TestServer(router: Self.router())
        let content = patternBytes(1 << 20, seed: 9)
        for chunked in [false, true] {
            let big = try await post(server, "/reply", content, chunked: chunked)
            #expect(big.status == 301, "chunked: \(chunked)")
            #expect(big.headers["location"] == "/result?exceeded=true&kept=1000")
            #expect(Array(big.body) == Array(content.prefix(16)))
        }
        let small = try await post(server, "/reply", Array(content.prefix(1000)))
        #expect(small.headers["location"] == "/result?exceeded=false&kept=1000")
        let strict = try await post(server, "/strict", Array(content.prefix(1001)))
        #expect(strict.status == 413, "other routes still refuse")
        await server.stop()
    }

    @Test func beyondTheDrainLimitItIsStillA413() async throws {
        let server = try TestServer(router: Self.router())
        let huge = patternBytes((2 << 20) + 1, seed: 4)
        #expect(try await post(server, "/reply", huge).status == 413)
        #expect(try await post(server, "/reply", huge, chunked: true).status == 413)
        // The server is still there for the next client.
        #expect(try await post(server, "/reply", [1, 2, 3]).status == 301)
        await server.stop()
    }
}
