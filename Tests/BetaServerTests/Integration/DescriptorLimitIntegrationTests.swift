import Foundation
import Testing
@testable import BetaServer
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine in a process with `ulimit -n 256` facing 1,000 connection attempts: it must neither
/// spin nor flood its log, and it must serve again once the connections close. Each test has its
/// own host and its own 1,000 clients, and the 4,096 descriptors the test process raises its limit
/// to hold both floods (about 2,200) with more to spare than the default 1,024, so the tests run
/// in parallel.
@Suite struct DescriptorLimitIntegrationTests {
    /// A BetaServerHost started under `ulimit -n 256`, logging to a file.
    struct LimitedHost {
        let process: ChildProcess
        let port: Int
        let logPath: String

        init(scratch: TemporaryDirectory, extraArguments: [String]) async throws {
            let executable = try #require(HostExecutable.url)
            let portFile = scratch.child("port")
            logPath = scratch.child("host.log")
            // The handshake completes in the kernel whether or not the server accepts, so the
            // held connections stay idle for the whole test (header deadline 120 s).
            let command = (["exec", executable.path, "--listen", "127.0.0.1:0", "--port-file", portFile,
                            "--loops", "2", "--header-timeout", "120", "--max-connections-per-ip", "0"] + extraArguments)
                .map { "'\($0)'" }.joined(separator: " ")
            process = try ChildProcess("/bin/sh", ["-c", "ulimit -n 256 && " + command], error: .file(logPath))
            var found = 0
            for _ in 0..<600 where found == 0 {
                if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let value = Int(text) { found = value }
                else { try await Task.sleep(for: .milliseconds(50)) }
            }
            port = found
        }

        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        func stop() { process.stop(grace: 30) }

        /// `stop` for async code, holding no cooperative thread while the host drains.
        func stopped() async { await process.stopped(grace: 30) }
    }

    /// Attempts `count` connections to `port` and keeps those that connect; blocking, so run it
    /// off the pool. A connection the server refuses with a reset can fail before `connect`
    /// even returns; those come back as `failed`.
    static func flood(port: Int, count: Int) async throws -> (clients: [RawClient], failed: Int) {
        try await blocking {
            var clients: [RawClient] = []
            var failed = 0
            for _ in 0..<count {
                if let client = try? RawClient(port: port, receiveTimeout: 1) { clients.append(client) } else { failed += 1 }
            }
            return (clients, failed)
        }
    }

    /// CPU seconds the process uses over `seconds` of wall time.
    static func cpuUsed(by pid: Int32, over seconds: Double) async throws -> Double {
        let before = try #require(processCPUSeconds(pid))
        try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        let after = try #require(processCPUSeconds(pid))
        return after - before
    }

    /// Asks for /healthz until it answers 200 or `seconds` pass; returns the last status seen.
    static func healthzRecovers(port: Int, within seconds: Int) async throws -> String {
        var status = ""
        for _ in 0..<(seconds * 4) {
            let result = try await runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2",
                                                    "http://127.0.0.1:\(port)/healthz"])
            status = result.text
            if status == "200" { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        return status
    }

    @Test(.enabled(if: HostExecutable.url != nil && FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func runningOutOfDescriptorsPausesAcceptingWithoutSpinningAndRecovers() async throws {
        #expect(raiseOpenFileLimit(to: 4096) >= 1100, "the test itself needs about 1,100 descriptors")
        let scratch = try TemporaryDirectory("betaserver-fd")
        // 180 held descriptors stand for the rest of a real process, so accept() hits EMFILE
        // before the connection cap the engine derives from the limit is reached.
        let host = try await LimitedHost(scratch: scratch, extraArguments: ["--hold-descriptors", "180"])
        defer { host.stop() }
        #expect(host.port > 0)
        let started = Date()
        var (clients, failed) = try await Self.flood(port: host.port, count: 1000)
        // Paused, the server leaves new connections in the listen backlog: nobody is refused.
        #expect(failed == 0)
        // Let the engine work through what it can, then watch it while the clients sit idle.
        try await Task.sleep(for: .seconds(1))
        let cpu = try await Self.cpuUsed(by: host.process.processIdentifier, over: 3)
        #expect(cpu < 0.5, "the server used \(cpu) CPU seconds in 3 s while every client was idle")
        let warnings = host.log.split(separator: "\n").filter { $0.contains("out of file descriptors") }
        #expect(warnings.count >= 1, "accept() never ran out of descriptors; the test proves nothing:\n\(host.log)")
        // One warning, then at most one per 10 s (a loaded machine makes the flood itself slow).
        let elapsed = Date().timeIntervalSince(started)
        #expect(warnings.count <= 1 + Int(elapsed / 10), "\(warnings.count) warnings in \(Int(elapsed)) s: the warning is not rate-limited")
        #expect(host.log.utf8.count < 4096, "the log grew to \(host.log.utf8.count) bytes")
        clients.removeAll()
        let status = try await Self.healthzRecovers(port: host.port, within: 20)
        #expect(status == "200")
        #expect(host.process.isRunning)
        await host.stopped()
    }

    @Test(.enabled(if: HostExecutable.url != nil && FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func beyondTheConnectionsTheLimitAllowsClientsGet503AndTheServerStaysIdle() async throws {
        #expect(raiseOpenFileLimit(to: 4096) >= 1100, "the test itself needs about 1,100 descriptors")
        let scratch = try TemporaryDirectory("betaserver-fd")
        let host = try await LimitedHost(scratch: scratch, extraArguments: [])
        defer { host.stop() }
        #expect(host.port > 0)
        var (clients, failed) = try await Self.flood(port: host.port, count: 1000)
        try await Task.sleep(for: .seconds(1))
        let cpu = try await Self.cpuUsed(by: host.process.processIdentifier, over: 3)
        #expect(cpu < 0.5, "the server used \(cpu) CPU seconds in 3 s while every client was idle")
        // 256 descriptors leave room for (256 - 64) / 2 = 96 connections; the others are refused,
        // the first ones with a 503 and the rest of the flood with a reset.
        #expect(host.log.contains("at most 96 connections"), "start-up did not explain the lowered cap:\n\(host.log)")
        let answers = clients.map { $0.readAvailable() }
        let refused = answers.filter { String(decoding: $0.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503 Service Unavailable") }
        let ended = answers.filter(\.ended)
        #expect(refused.count >= 10, "only \(refused.count) clients got a 503")
        #expect(ended.count + failed >= 1000 - 96, "\(ended.count + failed) of 1,000 connections were closed by the server")
        #expect(clients.count - ended.count <= 96, "\(clients.count - ended.count) connections are held, beyond the cap")
        #expect(!host.log.contains("out of file descriptors"), "the cap should keep accept() from running out:\n\(host.log)")
        clients.removeAll()
        let status = try await Self.healthzRecovers(port: host.port, within: 20)
        #expect(status == "200")
        await host.stopped()
    }
}
