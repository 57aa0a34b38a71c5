import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Real clients on loopback: curl for ranges, resume, HEAD, keep-alive, uploads and IPv6.
@Suite(.serialized) struct CurlIntegrationTests {
    static func router(root: String) -> Router {
        var router = Router()
        router.get("/files/*path", StaticFiles(root: root).handler)
        router.post("/upload", options: RouteOptions(bodyLimit: 8 * 1024 * 1024)) { request, _ in
            let bytes = try request.body.bytes()
            let storage = if case .file = request.body { "file" } else { "memory" }
            return .text("\(bytes.count) \(bytes.reduce(0) { $0 &+ UInt32($1) }) \(storage)")
        }
        router.post("/small", options: RouteOptions(bodyLimit: 1000)) { request, _ in .text("\(request.body.count)") }
        router.get("/stream") { _, _ in
            Response(headers: ["Content-Type": "text/plain"], body: .stream { writer in
                for index in 0..<100 { try await writer.write("line \(index)\n") }
            })
        }
        return router
    }

    @Test func rangeRequestReturnsExactlyTheRequestedBytes() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let content = patternBytes(300_000)
        _ = try scratch.write("data.bin", content)
        let server = try TestServer(router: Self.router(root: scratch.path))
        let result = try await runTool("curl", ["-s", "-f", "-r", "1000-1999", "\(server.base)/files/data.bin"])
        #expect(result.status == 0)
        #expect(Array(result.output) == Array(content[1000...1999]))
        let suffix = try await runTool("curl", ["-s", "-f", "-r", "-500", "\(server.base)/files/data.bin"])
        #expect(Array(suffix.output) == Array(content[(content.count - 500)...]))
        let beyond = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-r", "400000-",
                                                "\(server.base)/files/data.bin"])
        #expect(beyond.text == "416")
        await server.stop()
    }

    @Test func curlResumesAPartialDownloadWithContinueAt() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let content = patternBytes(2_000_000, seed: 3)
        _ = try scratch.write("app.ipa", content)
        let partial = try scratch.write("partial.ipa", Array(content[0..<777_777]))
        let server = try TestServer(router: Self.router(root: scratch.path))
        let result = try await runTool("curl", ["-s", "-f", "-C", "-", "-o", partial, "\(server.base)/files/app.ipa"])
        #expect(result.status == 0, "curl: \(result.error)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: partial))) == content)
        await server.stop()
    }

    @Test func headReturnsHeadersWithoutABody() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        _ = try scratch.write("data.bin", patternBytes(12345))
        let server = try TestServer(router: Self.router(root: scratch.path))
        let result = try await runTool("curl", ["-s", "-I", "\(server.base)/files/data.bin"])
        #expect(result.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(result.text.contains("Content-Length: 12345\r\n"))
        #expect(result.text.contains("ETag: \""))
        #expect(result.text.hasSuffix("\r\n\r\n"))
        let health = try await runTool("curl", ["-s", "-I", "\(server.base)/healthz"])
        #expect(health.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(health.text.contains("Content-Length: 3\r\n"))
        await server.stop()
    }

    @Test func keepAliveReusesOneConnectionForSeveralRequests() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        _ = try scratch.write("a.txt", Array("alpha".utf8))
        let server = try TestServer(router: Self.router(root: scratch.path))
        let url = "\(server.base)/files/a.txt"
        let result = try await runTool("curl", ["-s", "-v", url, url, url, "/dev/null"])
        #expect(result.text == "alphaalphaalpha")
        #expect(result.error.components(separatedBy: "Re-using existing connection").count - 1 >= 2,
                "curl did not reuse the connection: \(result.error)")
        await server.stop()
    }

    @Test func chunkedUploadWithExpectContinueIsReceivedWhole() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let body = patternBytes(3_000_000, seed: 11)
        let file = try scratch.write("body.bin", body)
        let server = try TestServer(router: Self.router(root: scratch.path)) { configuration in
            configuration.temporaryDirectory = scratch.path
        }
        let result = try await runTool("curl", ["-s", "-f", "-H", "Transfer-Encoding: chunked", "-H", "Expect: 100-continue",
                                                "--data-binary", "@\(file)", "\(server.base)/upload"])
        let sum = body.reduce(UInt32(0)) { $0 &+ UInt32($1) }
        #expect(result.text == "\(body.count) \(sum) file", "curl: \(result.error)")
        let small = try await runTool("curl", ["-s", "-f", "-H", "Transfer-Encoding: chunked", "--data-binary", "hello",
                                               "\(server.base)/upload"])
        #expect(small.text == "5 532 memory")
        await server.stop()
    }

    @Test func bodyOverTheRouteLimitIsAnswered413() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let server = try TestServer(router: Self.router(root: scratch.path))
        let big = String(repeating: "x", count: 5000)
        let fixed = try await runTool("curl", ["-s", "-w", "\n%{http_code}", "--data-binary", big, "\(server.base)/small"])
        #expect(fixed.text.hasSuffix("\n413"))
        #expect(fixed.text.contains("limit of 1000 bytes"))
        let chunked = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked",
                                                 "--data-binary", big, "\(server.base)/small"])
        #expect(chunked.text == "413")
        await server.stop()
    }

    @Test func streamedResponsesArriveChunked() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let server = try TestServer(router: Self.router(root: scratch.path))
        let result = try await runTool("curl", ["-s", "-i", "--raw", "\(server.base)/stream"])
        #expect(result.text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(result.text.hasSuffix("0\r\n\r\n"))
        let decoded = try await runTool("curl", ["-s", "\(server.base)/stream"])
        #expect(decoded.text == (0..<100).map { "line \($0)\n" }.joined())
        await server.stop()
    }

    @Test func ipv6LoopbackIsServed() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let server = try TestServer(router: Self.router(root: scratch.path), host: "::1")
        let result = try await runTool("curl", ["-s", "-g", "\(server.base)/healthz"])
        #expect(result.text == "ok\n")
        await server.stop()
    }

    @Test func gzipIsNegotiatedForCompressibleFiles() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let page = String(repeating: "<li>build</li>\n", count: 1000)
        _ = try scratch.write("index.html", Array(page.utf8))
        let server = try TestServer(router: Self.router(root: scratch.path))
        let result = try await runTool("curl", ["-s", "--compressed", "-D", "-", "\(server.base)/files/index.html"])
        #expect(result.text.contains("Content-Encoding: gzip"))
        #expect(result.text.hasSuffix(page))
        await server.stop()
    }
}
