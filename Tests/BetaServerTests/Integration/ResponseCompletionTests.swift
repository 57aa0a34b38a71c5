import Foundation
import Testing
import TestSupport
@testable import BetaServer

/// `Response.onFinish` tells a handler whether its response went out whole (a completed download)
/// or the client left first.
@Suite(.serialized) struct ResponseCompletionTests {
    @Test func aResponseReadToTheEndIsDeliveredAndOneCutShortIsAbandoned() async throws {
        let outcomes = Locked<[String: ResponseOutcome]>([:])
        var router = Router()
        let big = patternBytes(32 << 20)
        router.get("/file/:name", options: RouteOptions(execution: .eventLoop)) { request, _ in
            let name = request.parameters["name"] ?? ""
            var response = Response.bytes(big, contentType: "application/octet-stream")
            response.onFinish = { outcome in outcomes.withLock { $0[name] = outcome } }
            return response
        }
        let server = try TestServer(router: router)
        let whole = try await blocking { () -> Int in
            let client = try RawClient(port: server.port)
            client.send("GET /file/whole HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return client.readToEnd().bytes.count
        }
        #expect(whole > big.count)
        try await blocking {
            let client = try RawClient(port: server.port)
            client.send("GET /file/cut HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.read(until: "\r\n\r\n")
        }
        for _ in 0 ..< 200 where outcomes.value.count < 2 { try await Task.sleep(for: .milliseconds(25)) }
        #expect(outcomes.value["whole"] == .delivered)
        #expect(outcomes.value["cut"] == .abandoned)
        await server.stop()
    }
}
