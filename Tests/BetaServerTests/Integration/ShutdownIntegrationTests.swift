import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Graceful shutdown in a real process: SIGTERM during a large download lets it finish. Each test
/// has its own server, so the tests run in parallel.
// Serialized: the in-process servers here answer on the test process's cooperative threads, and beside each
// other (and the rest of the suite) a loaded machine left some requests waiting past their clients' timeouts.
@Suite(.serialized) struct ShutdownIntegrationTests {
    @Test(.enabled(if: HostExecutable.url != nil))
    func sigtermDuringALargeDownloadLetsItFinish() async throws {
        let scratch = try TemporaryDirectory("betaserver")
        let content = patternBytes(24 * 1024 * 1024, seed: 5)
        _ = try scratch.write("large.bin", content)
        let portFile = scratch.path + "/port"
        let executable: URL = try #require(HostExecutable.url)
        let errors = Pipe()
        let host = try ChildProcess(executable.path, ["--listen", "127.0.0.1:0", "--root", scratch.path, "--port-file", portFile, "--grace", "60"],
                                    error: .pipe(errors))
        defer { host.stop() }
        var port = 0
        for _ in 0..<600 where port == 0 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let value = Int(text) { port = value }
            else { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(port > 0)
        let output = scratch.path + "/download.bin"
        // ~8 MB/s makes the download take a few seconds, so SIGTERM lands mid-transfer.
        async let download = runTool("curl", ["-s", "-f", "--limit-rate", "8M", "-o", output,
                                              "http://127.0.0.1:\(port)/files/large.bin"], timeout: 300)
        var started = false
        for _ in 0..<600 where !started {
            try await Task.sleep(for: .milliseconds(50))
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            started = size > 0
        }
        #expect(started)
        kill(host.processIdentifier, SIGTERM)
        let result = try await download
        #expect(result.status == 0, "curl: \(result.error)")
        let received = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(received.count == content.count)
        #expect(Array(received) == content)
        #expect(await host.exit() == .exited(0))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("SIGTERM"))
        // New connections are refused once the server has stopped.
        let after = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/healthz"])
        #expect(after.text == "000")
    }

    @Test func shutdownClosesIdleConnectionsAndFinishesBusyOnes() async throws {
        let started = LockedLines()
        var router = Router()
        router.get("/slow") { _, _ in
            started.append("started")
            try await Task.sleep(for: .milliseconds(500))
            return .text("done")
        }
        let server = try TestServer(router: router)
        let idle = try RawClient(port: server.port)
        let busy = try RawClient(port: server.port)
        busy.send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n")
        // Shut down only once the handler is running, however slow the machine is.
        for _ in 0..<1200 where started.lines.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        #expect(!started.lines.isEmpty)
        server.server.shutdown(gracePeriod: .seconds(30))
        let (busyResult, idleResult) = try await blocking { (busy.readToEnd(), idle.readToEnd()) }
        let text = String(decoding: busyResult.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("Connection: close"))
        #expect(text.hasSuffix("done"))
        #expect(idleResult.bytes.isEmpty && !idleResult.timedOut)
        await server.server.waitUntilStopped()
    }
}
