import Foundation
import Testing
import TestSupport

/// `betactl serve` as a user runs it: it says where it listens, answers /healthz, stops cleanly on
/// SIGTERM, and explains a port that is already taken. Each test has its own home and its servers
/// listen on free ports, so the tests run in parallel.
@Suite struct ServeCommandTests {
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
            if !process.isRunning { return process.terminationStatus }
            try? await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGKILL)
        await process.exit()
        return nil
    }

    @Test func serveLogsItsAddressAnswersHealthzAndStopsOnSigterm() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
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
        try await cli.okAsync("init")
        let (process, url, _) = try await startServe(cli, ["--listen", "[::1]:0"])
        defer { if process.isRunning { process.terminate() } }
        #expect(url.hasPrefix("http://[::1]:"))
        kill(process.processIdentifier, SIGINT)
        #expect(await waitForExit(process) == 0)
    }

    @Test func aSignalRightAfterStartUpIsNeverLost() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
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
        try await cli.okAsync("init")
        let (process, url, _) = try await startServe(cli, ["--listen", "127.0.0.1:0"])
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(url.split(separator: ":").last.map(String.init))
        let second = try await cli.runAsync("serve", "--listen", "127.0.0.1:\(port)")
        #expect(second.status == 1)
        #expect(second.stderr.contains("port \(port) is already in use"))
        #expect(second.stderr.contains("--listen 127.0.0.1:PORT"))
        kill(process.processIdentifier, SIGTERM)
        _ = await waitForExit(process)
    }

    /// `ln -s /etc/passwd DIR/x.css` would serve /etc/passwd as /assets/x.css: a link leaving the
    /// override directory is refused at start, naming it; a link inside it is followed.
    @Test func overrideLinksLeavingTheirDirectoryAreRefusedAtStart() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
        let web = dir.child("web"), templates = dir.child("templates")
        for folder in [web, templates, web + "/fonts"] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data("body { color: red; }\n".utf8).write(to: URL(fileURLWithPath: web + "/real.css"))
        try FileManager.default.createSymbolicLink(atPath: web + "/linked.css", withDestinationPath: "real.css")
        try FileManager.default.createSymbolicLink(atPath: web + "/fonts/up.css", withDestinationPath: "../real.css")

        let (process, url, _) = try await startServe(cli, ["--listen", "127.0.0.1:0", "--web", web])
        let linked = try await curl("\(url)/assets/linked.css")
        #expect(linked.status == 200 && linked.text == "body { color: red; }\n", "a link inside the directory is followed")
        #expect(try await curl("\(url)/assets/fonts/up.css").status == 200)
        kill(process.processIdentifier, SIGTERM)
        _ = await waitForExit(process)

        try FileManager.default.createSymbolicLink(atPath: web + "/x.css", withDestinationPath: "/etc/passwd")
        let refused = try await cli.runAsync("serve", "--listen", "127.0.0.1:0", "--web", web)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("\(web)/x.css is a symbolic link to /etc/passwd, outside the --web directory"), "\(refused.stderr)")
        try FileManager.default.removeItem(atPath: web + "/x.css")
        // A linked folder leaving it too, and the same for --templates.
        try FileManager.default.createSymbolicLink(atPath: web + "/etc", withDestinationPath: "/etc")
        #expect(try await cli.runAsync("serve", "--listen", "127.0.0.1:0", "--web", web).stderr.contains("\(web)/etc is a symbolic link to /etc,"))
        try FileManager.default.removeItem(atPath: web + "/etc")
        try FileManager.default.createSymbolicLink(atPath: templates + "/tester.html", withDestinationPath: "/etc/hostname")
        let template = try await cli.runAsync("serve", "--listen", "127.0.0.1:0", "--templates", templates)
        #expect(template.status != 0)
        #expect(template.stderr.contains("\(templates)/tester.html is a symbolic link to /etc/hostname, outside the --templates directory"), "\(template.stderr)")
    }

    @Test func malformedListenAddressesAreUsageErrors() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
        let result = try await cli.runAsync("serve", "--listen", "localhost")
        #expect(result.status == 64)
        #expect(result.stderr.contains("use HOST:PORT"))
    }

    @Test func perClientCapAndSpoolSweepApplyToTheHome() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try await cli.okAsync("init")
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
        let bad = try await cli.runAsync("serve", "--max-connections-per-ip", "many")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--max-connections-per-ip needs a number (0 for no cap), got many"))
    }

    @Test func serveNeedsAnInitialisedHome() async throws {
        let dir = try TemporaryDirectory()
        let result = try await Betactl(home: dir.child("missing")).runAsync("serve", "--listen", "127.0.0.1:0")
        #expect(result.status != 0)
        #expect(result.stderr.contains("init"))
    }
}
