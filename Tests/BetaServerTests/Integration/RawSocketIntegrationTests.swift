import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Exact bytes on the wire: malformed requests get an error response with `Connection: close`
/// (never a silent drop), slow clients are cut off, and limits hold. Every test starts its own
/// server on a free port and waits for slow clients on threads of its own, so the tests run in
/// parallel.
// Serialized: the in-process servers here answer on the test process's cooperative threads, and beside each
// other (and the rest of the suite) a loaded machine left some requests waiting past their clients' timeouts.
@Suite(.serialized) struct RawSocketIntegrationTests {
    static var router: Router {
        var router = Router()
        router.post("/echo", options: RouteOptions(bodyLimit: 1 << 20)) { request, _ in
            .bytes(try request.body.bytes(), contentType: "application/octet-stream")
        }
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .milliseconds(300))
            return .text("slow")
        }
        return router
    }

    /// Sends `request`, reads to EOF and returns the response text.
    func exchange(_ request: String, port: Int) async throws -> (text: String, reset: Bool) {
        try await blocking {
            let client = try RawClient(port: port)
            client.send(request)
            let (bytes, reset, _) = client.readToEnd()
            return (String(decoding: bytes, as: UTF8.self), reset)
        }
    }

    static let malformed: [(String, Int)] = [
        ("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", 400),
        ("GET / HTTP/1.1\nHost: h\n\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\nHost: h\r\n\r\n", 505),
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: h\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: h\r\n" + (0..<120).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
        ("POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST /echo HTTP/1.1\r\nHost: h\r\nExpect: later\r\nContent-Length: 1\r\n\r\nx", 417),
        ("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedRequestsGetAnErrorResponseAndAClose(index: Int) async throws {
        let (request, status) = Self.malformed[index]
        let server = try TestServer(router: Self.router)
        let response = try await exchange(request, port: server.port)
        #expect(response.text.hasPrefix("HTTP/1.1 \(status) "), "got: \(response.text.prefix(200))")
        #expect(response.text.contains("\r\nConnection: close\r\n"))
        #expect(!response.reset)
        await server.stop()
    }

    @Test func rejectedRequestsAppearInTheAccessLog() async throws {
        let lines = LockedLines()
        let log = ServerLog(message: { _ in }, access: { lines.append($0) })
        let server = try TestServer(router: Self.router, log: log)
        _ = try await exchange("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
                               port: server.port)
        await server.stop()
        #expect(lines.lines.contains { $0.hasPrefix("127.0.0.1 - - [") && $0.contains("\"GET /healthz HTTP/1.1\" 200 3") })
        #expect(lines.lines.contains { $0.hasPrefix("127.0.0.1 - - [") && $0.contains("\"-\" 400 -") })
    }

    @Test func aMalformedRequestAfterAGoodOneOnTheSameConnectionStillGetsAnswered() async throws {
        let server = try TestServer(router: Self.router)
        let response = try await exchange("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n",
                                          port: server.port)
        #expect(response.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(response.text.contains("HTTP/1.1 400 Bad Request"))
        await server.stop()
    }

    @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsSlow() async throws {
        let server = try TestServer(router: Self.router)
        let request = "GET /slow HTTP/1.1\r\nHost: h\r\n\r\nGET /healthz HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nConnection: close\r\n\r\nping"
        let response = try await exchange(request, port: server.port)
        let slow = try #require(response.text.range(of: "\r\n\r\nslow"))
        let health = try #require(response.text.range(of: "\r\n\r\nok\n"))
        let echo = try #require(response.text.range(of: "\r\n\r\nping"))
        #expect(slow.lowerBound < health.lowerBound && health.lowerBound < echo.lowerBound)
        await server.stop()
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBodyIsSent() async throws {
        let server = try TestServer(router: Self.router)
        let text = try await blocking {
            let client = try RawClient(port: server.port)
            client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = client.read(until: "\r\n\r\n")
            client.send("hello")
            return interim + client.read(until: "hello")
        }
        #expect(text.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("hello"))
        await server.stop()
    }

    @Test func oversizeContentLengthIsRefusedWithoutContinue() async throws {
        let server = try TestServer(router: Self.router)
        let response = try await exchange("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999\r\nExpect: 100-continue\r\n\r\n",
                                          port: server.port)
        #expect(response.text.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(!response.text.contains("100 Continue"))
        await server.stop()
    }

    @Test func slowlorisHeadersAreCutOffWith408WhileOthersAreServed() async throws {
        let server = try TestServer(router: Self.router) { $0.timeouts.header = .seconds(2) }
        let slow = try await blocking { () -> (String, Bool) in
            let client = try RawClient(port: server.port)
            client.send("GET / HTTP/1.1\r\nHost: h\r\n")
            var cutOff = false
            for index in 0..<40 {
                // One header line every 250 ms: progress, but never a complete head.
                if !client.send("X-\(index): v\r\n") {
                    cutOff = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.25)
            }
            let (bytes, _, _) = client.readToEnd()
            return (String(decoding: bytes, as: UTF8.self), cutOff)
        }
        #expect(slow.0.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(slow.0.contains("Connection: close"))
        let normal = try await exchange("GET /healthz HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(normal.text.hasPrefix("HTTP/1.1 200 OK"))
        await server.stop()
    }

    @Test func slowBodiesBelowTheMinimumRateAreCutOff() async throws {
        let server = try TestServer(router: Self.router) { configuration in
            configuration.timeouts.minimumDataRate = 1000
            configuration.timeouts.dataRateWindow = .seconds(1)
            configuration.timeouts.bodyGrace = .seconds(1)
        }
        let text = try await blocking {
            let client = try RawClient(port: server.port)
            client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
            for _ in 0..<40 {
                if !client.send("x") { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return String(decoding: client.readToEnd().bytes, as: UTF8.self)
        }
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        await server.stop()
    }

    @Test func clientsReadingBelowTheMinimumRateAreDisconnected() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let size = 48 * 1024 * 1024
        _ = try scratch.write("large.bin", [UInt8](repeating: 0x61, count: size))
        var router = Router()
        router.get("/files/*path", StaticFiles(root: scratch.path).handler)
        let server = try TestServer(router: router) { configuration in
            configuration.timeouts.minimumDataRate = 1_000_000
            configuration.timeouts.dataRateWindow = .seconds(1)
        }
        let result = try await blocking {
            let client = try RawClient(port: server.port)
            client.send("GET /files/large.bin HTTP/1.1\r\nHost: h\r\n\r\n")
            // The head first, so the server is known to be writing (on a loaded machine its handler
            // may start late), then nothing for a while: the kernel buffers fill and its writes stall.
            let head = client.read(until: "\r\n\r\n")
            Thread.sleep(forTimeInterval: 6)
            let rest = client.readToEnd()
            return (head: head, count: head.utf8.count + rest.bytes.count, timedOut: rest.timedOut)
        }
        #expect(result.head.hasPrefix("HTTP/1.1 200 OK"))
        #expect(result.count < size)
        #expect(!result.timedOut)
        await server.stop()
    }

    @Test func idleKeepAliveConnectionsAreClosed() async throws {
        let server = try TestServer(router: Self.router) { $0.timeouts.idle = .seconds(1) }
        let result = try await blocking {
            let client = try RawClient(port: server.port)
            client.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            return client.readToEnd()
        }
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(!result.timedOut)
        await server.stop()
    }

    @Test func connectionsBeyondTheCapGet503() async throws {
        let server = try TestServer(router: Self.router) { $0.maxConnections = 2 }
        let port = server.port
        // On a thread of its own, with no hop through the concurrency pool between holding the
        // connections and asking again (see ConnectionLimitTests).
        let text = try await blocking { () -> String in
            let held = try (0..<2).map { _ in try RawClient(port: port) }
            // Make sure both are accepted and counted before the third arrives.
            for client in held { client.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n") }
            for client in held { _ = client.read(until: "ok\n") }
            let client = try RawClient(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            let answer = String(decoding: client.readToEnd().bytes, as: UTF8.self)
            withExtendedLifetime(held) {}
            return answer
        }
        #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(text.contains("Connection: close"))
        await server.stop()
    }

    @Test func aPortInUseIsAClearError() async throws {
        let server = try TestServer(router: Self.router)
        var configuration = ServerConfiguration()
        configuration.listen = [ListenAddress(host: "127.0.0.1", port: server.port)]
        let second = try HTTPServer(configuration: configuration, router: Router(), log: .discarding)
        #expect(throws: ServerError.addressInUse(ListenAddress(host: "127.0.0.1", port: server.port))) { try second.start() }
        let message = ServerError.addressInUse(ListenAddress(host: "127.0.0.1", port: server.port)).description
        #expect(message.contains("port \(server.port) is already in use"))
        #expect(message.contains("--listen 127.0.0.1:PORT"))
        await server.stop()
    }
}

/// Python's http.client reading pipelined responses off one socket.
@Suite(.serialized) struct PythonIntegrationTests {
    @Test func pythonReadsPipelinedResponsesInOrder() async throws {
        var router = Router()
        router.get("/n/:n") { request, _ in .text("number \(request.parameters["n"] ?? "")") }
        let server = try TestServer(router: router)
        let script = """
        import http.client, io, socket, sys

        class SharedReader(io.BufferedReader):
            # One buffered reader for all responses: http.client reads ahead, and pipelined
            # responses buffered by one response object must stay visible to the next.
            def close(self):
                pass

        class PipelinedSocket:
            def __init__(self, sock):
                self.reader = SharedReader(socket.SocketIO(sock, "rb"))
            def makefile(self, *args, **kwargs):
                return self.reader

        port = int(sys.argv[1])
        sock = socket.create_connection(("127.0.0.1", port))
        shared = PipelinedSocket(sock)
        requests = b"".join(b"GET /n/%d HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % i for i in range(20))
        sock.sendall(requests + b"HEAD /n/20 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
        for i in range(20):
            response = http.client.HTTPResponse(shared, method="GET")
            response.begin()
            body = response.read().decode()
            assert response.status == 200 and body == "number %d" % i, (response.status, body)
        head = http.client.HTTPResponse(shared, method="HEAD")
        head.begin()
        assert head.status == 200 and head.read() == b"" and head.getheader("Content-Length") == "9", head.status
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", "/n/7")
        first = conn.getresponse().read()
        conn.request("GET", "/healthz")
        second = conn.getresponse().read()
        assert first == b"number 7" and second == b"ok\\n", (first, second)
        print("pipelined ok")
        """
        // The deadline only catches a hang: this in-process server's handlers share the concurrency
        // pool with every other test of the run (synchronous tests hold its threads while they
        // run), so under the full suite its 22 answers can take a minute or more to come.
        let result = try await runTool("python3", ["-c", script, String(server.port)], timeout: 600)
        #expect(result.text == "pipelined ok\n", "python: \(result.error)")
        await server.stop()
    }
}
