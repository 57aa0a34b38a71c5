import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// `RouteOptions.headCheck`: a route can refuse a request from its head alone, before any of the
/// body is read or `100 Continue` is sent; the handler never runs and the connection closes.
@Suite(.serialized) struct HeadCheckTests {
    final class Counter: @unchecked Sendable {
        let calls = Locked(0)
    }

    static func router(_ counter: Counter) -> Router {
        var router = Router()
        let check: @Sendable (Request) -> Response? = { request in
            // The route's parameters are known to the check.
            guard request.headers["X-Key"] == "open-\(request.parameters["bucket"] ?? "")" else {
                return Response(status: .unauthorized, headers: ["Content-Type": "text/plain", "X-Refused": "head"], body: .bytes(Array("no key\n".utf8)))
            }
            return nil
        }
        router.post("/upload/:bucket", options: RouteOptions(bodyLimit: 1 << 30, headCheck: check)) { request, _ in
            counter.calls.withLock { $0 += 1 }
            return .text("stored \(request.body.count)\n")
        }
        return router
    }

    @Test func aRefusedHeadIsAnsweredWithoutContinueAndTheHandlerNeverRuns() async throws {
        let counter = Counter()
        let lines = LockedLines()
        let server = try TestServer(router: Self.router(counter), log: ServerLog(message: { _ in }, access: { lines.append($0) }))
        let text = try await blocking { () -> String in
            let client = try RawClient(port: server.port)
            client.send("POST /upload/a HTTP/1.1\r\nHost: h\r\nContent-Length: 500000000\r\nExpect: 100-continue\r\n\r\n")
            let (bytes, _, _) = client.readToEnd()
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(text.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"), "\(text)")
        #expect(!text.contains("100 Continue"))
        #expect(text.contains("\r\nX-Refused: head\r\n") && text.contains("\r\nConnection: close\r\n") && text.hasSuffix("no key\n"))
        #expect(counter.calls.value == 0)
        #expect(lines.lines.contains { $0.contains("\"POST /upload/a HTTP/1.1\" 401") }, "the refusal is in the access log")
        await server.stop()
    }

    @Test func aRefusedHeadWithItsBodyAlreadySentIsStillAnsweredAndClosed() async throws {
        let counter = Counter()
        let server = try TestServer(router: Self.router(counter))
        let text = try await blocking { () -> String in
            let client = try RawClient(port: server.port)
            client.send("POST /upload/a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world")
            let (bytes, _, _) = client.readToEnd()
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(text.hasPrefix("HTTP/1.1 401 Unauthorized\r\n") && text.contains("Connection: close"))
        #expect(counter.calls.value == 0)
        await server.stop()
    }

    @Test func anAcceptedHeadReadsTheBodyAndRunsTheHandler() async throws {
        let counter = Counter()
        let server = try TestServer(router: Self.router(counter))
        let text = try await blocking { () -> String in
            let client = try RawClient(port: server.port)
            client.send("POST /upload/b HTTP/1.1\r\nHost: h\r\nX-Key: open-b\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = client.read(until: "\r\n\r\n")
            client.send("hello")
            return interim + client.read(until: "stored 5\n")
        }
        #expect(text.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n") && text.hasSuffix("stored 5\n"))
        #expect(counter.calls.value == 1)
        // With curl too: the wrong key is refused at once, having sent (almost) nothing of 4 MB.
        let file = try TemporaryDirectory("head")
        try Data(repeating: 1, count: 4 << 20).write(to: URL(fileURLWithPath: file.child("body")))
        let refused = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_upload}", "--data-binary", "@\(file.child("body"))",
                                                 "http://127.0.0.1:\(server.port)/upload/b"])
        let parts = refused.text.split(separator: " ")
        #expect(parts.first == "401" && (Int(parts.last ?? "") ?? .max) < 1 << 20, "\(refused.text)")
        await server.stop()
        withExtendedLifetime(file) {}
    }
}
