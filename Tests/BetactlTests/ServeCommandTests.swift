import Foundation
import Testing
import TestSupport

/// `betactl serve` as a user runs it: it says where it listens, answers /healthz, stops cleanly on
/// SIGTERM, and explains a port that is already taken.
@Suite(.serialized) struct ServeCommandTests {
    /// Starts `betactl serve` and waits (generously) for its "listening on" line; returns the URL.
    func startServe(_ cli: Betactl, _ arguments: [String]) async throws -> (ChildProcess, String, Pipe) {
        let errors = Pipe()
        let process = try cli.start(["serve"] + arguments, stderr: errors)
        let reader = errors.fileHandleForReading
        let url: String = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var text = ""
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                        continuation.resume(returning: String(line.dropFirst("listening on ".count)))
                        return
                    }
                }
                continuation.resume(throwing: CocoaError(.fileReadUnknown, userInfo: ["stderr": text]))
            }
            thread.start()
        }
        return (process, url, errors)
    }

    /// The exit status, or nil when the process still runs after a minute (it is then killed, so a
    /// server that ignores a signal fails the test instead of hanging the suite).
    func waitForExit(_ process: ChildProcess) async -> Int32? {
        for _ in 0..<600 {
            if !process.isRunning {
                process.waitUntilExit()
                return process.terminationStatus
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
    }

    @Test func serveLogsItsAddressAnswersHealthzAndStopsOnSigterm() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let (process, url, _) = try await startServe(cli, ["--listen", "127.0.0.1:0"])
        defer { if process.isRunning { process.terminate() } }
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let fetched = try await runTool("curl", ["-s", "--max-time", "60", url + "/healthz"])
        #expect(fetched.text == "ok\n")
        kill(process.processIdentifier, SIGTERM)
        #expect(await waitForExit(process) == 0)
    }

    @Test func serveListensOnIPv6Loopback() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let (process, url, _) = try await startServe(cli, ["--listen", "[::1]:0"])
        defer { if process.isRunning { process.terminate() } }
        #expect(url.hasPrefix("http://[::1]:"))
        kill(process.processIdentifier, SIGINT)
        #expect(await waitForExit(process) == 0)
    }

    @Test func aSignalRightAfterStartUpIsNeverLost() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        for round in 0..<12 {
            let (process, _, _) = try await startServe(cli, ["--listen", "127.0.0.1:0"])
            defer { if process.isRunning { process.terminate() } }
            kill(process.processIdentifier, round.isMultiple(of: 2) ? SIGTERM : SIGINT)
            #expect(await waitForExit(process) == 0, "round \(round)")
        }
    }

    @Test func aPortAlreadyInUseNamesThePortAndTheFix() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let (process, url, _) = try await startServe(cli, ["--listen", "127.0.0.1:0"])
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(url.split(separator: ":").last.map(String.init))
        let second = try cli.run("serve", "--listen", "127.0.0.1:\(port)")
        #expect(second.status == 1)
        #expect(second.stderr.contains("port \(port) is already in use"))
        #expect(second.stderr.contains("--listen 127.0.0.1:PORT"))
        kill(process.processIdentifier, SIGTERM)
        _ = await waitForExit(process)
    }

    @Test func malformedListenAddressesAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let result = try cli.run("serve", "--listen", "localhost")
        #expect(result.status == 64)
        #expect(result.stderr.contains("use HOST:PORT"))
    }

    @Test func perClientCapAndSpoolSweepApplyToTheHome() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        // An upload spooled by a server that was killed (a pid far above any real one).
        let leftover = dir.child("home/tmp/betactl-body-2147483000-Ab12Cd")
        try Data("partial upload".utf8).write(to: URL(fileURLWithPath: leftover))
        let (process, url, errors) = try await startServe(cli, ["--listen", "127.0.0.1:0", "--max-connections-per-ip", "1"])
        defer { if process.isRunning { process.terminate() } }
        #expect(!FileManager.default.fileExists(atPath: leftover))
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })
        let answers = try await blocking { () -> (String, String) in
            let first = try RawClient(port: port)
            first.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            let held = first.read(until: "ok\n")
            let second = try RawClient(port: port)
            second.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            let refused = String(decoding: second.readToEnd().bytes, as: UTF8.self)
            withExtendedLifetime(first) {}
            return (held, refused)
        }
        #expect(answers.0.hasPrefix("HTTP/1.1 200 OK"))
        #expect(answers.1.hasPrefix("HTTP/1.1 503 Service Unavailable"))
        #expect(answers.1.contains("too many connections from your address (the limit is 1)"))
        kill(process.processIdentifier, SIGTERM)
        #expect(await waitForExit(process) == 0)
        withExtendedLifetime(errors) {}
        let bad = try cli.run("serve", "--max-connections-per-ip", "many")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--max-connections-per-ip needs a number (0 for no cap), got many"))
    }

    @Test func serveNeedsAnInitialisedHome() throws {
        let dir = try TemporaryDirectory()
        let result = try Betactl(home: dir.child("missing")).run("serve", "--listen", "127.0.0.1:0")
        #expect(result.status != 0)
        #expect(result.stderr.contains("init"))
    }
}
