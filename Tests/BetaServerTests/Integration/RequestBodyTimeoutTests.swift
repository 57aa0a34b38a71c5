import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Request bodies get a grace period, then must keep up a minimum rate; a body cut off leaves no
/// spool file, and spool files of a killed server are swept when the next one starts. Each test has
/// its own server and spool folder, and its slow client waits on a thread of its own, so the tests
/// run in parallel.
// Serialized: the in-process servers here answer on the test process's cooperative threads, and beside each
// other (and the rest of the suite) a loaded machine left some requests waiting past their clients' timeouts.
@Suite(.serialized) struct RequestBodyTimeoutTests {
    static var router: Router {
        var router = Router()
        // On the loop threads: a full test run keeps the shared pool busy with CPU-bound suites.
        router.post("/upload", options: RouteOptions(bodyLimit: 1 << 20, execution: .eventLoop)) { request, _ in
            let storage = if case .file = request.body { "file" } else { "memory" }
            return .text("\(request.body.count) \(storage)")
        }
        return router
    }

    static func spoolFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(BodySpool.defaultPrefix) }
    }

    @Test func aBodyThatStallsAfterTheGracePeriodIsCutOffAndItsSpoolFileDeleted() async throws {
        let scratch = try TemporaryDirectory("betaserver-body")
        let server = try TestServer(router: Self.router) { configuration in
            configuration.temporaryDirectory = scratch.path
            configuration.limits.bodyMemoryBytes = 1024
            configuration.timeouts.bodyGrace = .seconds(1)
            configuration.timeouts.dataRateWindow = .seconds(1)
            configuration.timeouts.minimumDataRate = 1000
        }
        let spooledWhileSending = LockedLines()
        let result = try await blocking { () -> (String, Double) in
            let client = try RawClient(port: server.port)
            let started = Date()
            client.send("POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
            // A fast start that spills to a spool file, then a trickle far below 1000 bytes/s.
            client.send([UInt8](repeating: 0x61, count: 8192))
            Thread.sleep(forTimeInterval: 0.3)
            for name in (try? Self.spoolFiles(in: scratch.path)) ?? [] {
                // Spooled bodies are private: mkstemp makes them 0600.
                let mode = (try? FileManager.default.attributesOfItem(atPath: scratch.child(name))[.posixPermissions]) as? Int
                spooledWhileSending.append("\(name) \(String(mode ?? 0, radix: 8))")
            }
            for _ in 0..<60 {
                if !client.send("x") { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            let text = String(decoding: client.readToEnd().bytes, as: UTF8.self)
            return (text, Date().timeIntervalSince(started))
        }
        #expect(result.0.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "got: \(result.0.prefix(200))")
        #expect(result.0.contains("slower than 1000 bytes/s"))
        #expect(result.1 < 8, "the cut-off took \(result.1) s")
        // The body was spooled while it arrived, and the spool file went with the request.
        #expect(spooledWhileSending.lines.count == 1)
        #expect(spooledWhileSending.lines.first?.hasPrefix("\(BodySpool.defaultPrefix)\(ProcessInfo.processInfo.processIdentifier)-") == true)
        #expect(spooledWhileSending.lines.first?.hasSuffix(" 600") == true, "\(spooledWhileSending.lines)")
        #expect(try Self.spoolFiles(in: scratch.path).isEmpty)
        await server.stop()
    }

    @Test func aBodyThatIsSlowOnlyDuringTheGracePeriodIsAccepted() async throws {
        let server = try TestServer(router: Self.router) { configuration in
            configuration.timeouts.bodyGrace = .seconds(3)
            configuration.timeouts.dataRateWindow = .seconds(1)
            configuration.timeouts.minimumDataRate = 1000
        }
        let text = try await blocking {
            let client = try RawClient(port: server.port)
            client.send("POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 50000\r\nConnection: close\r\n\r\n")
            // Two seconds of silence: without the grace period, a one-second window would cut this off.
            Thread.sleep(forTimeInterval: 2)
            client.send([UInt8](repeating: 0x62, count: 50000))
            return String(decoding: client.readToEnd().bytes, as: UTF8.self)
        }
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "got: \(text.prefix(200))")
        #expect(text.hasSuffix("\r\n\r\n50000 memory"))
        await server.stop()
    }

    @Test func startUpSweepsSpoolFilesOfDeadServersAndKeepsTheRest() async throws {
        let scratch = try TemporaryDirectory("betaserver-spool")
        let ownPID = ProcessInfo.processInfo.processIdentifier
        // A pid far above any real one stands for a killed server.
        let dead = scratch.child("\(BodySpool.defaultPrefix)2147483000-AbC123")
        let live = scratch.child("\(BodySpool.defaultPrefix)\(ownPID)-XyZ789")
        let oldUnnamed = scratch.child("\(BodySpool.defaultPrefix)Qw3rTy")
        let newUnnamed = scratch.child("\(BodySpool.defaultPrefix)As4dFg")
        let unrelated = scratch.child("upload.ipa")
        for path in [dead, live, oldUnnamed, newUnnamed, unrelated] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        let twoHoursAgo = Date().addingTimeInterval(-7200)
        try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: oldUnnamed)
        let lines = LockedLines()
        let server = try TestServer(router: Self.router, configure: { $0.temporaryDirectory = scratch.path },
                                    log: ServerLog(message: { lines.append($0) }, access: nil))
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: oldUnnamed))
        for kept in [live, newUnnamed, unrelated] { #expect(FileManager.default.fileExists(atPath: kept), "\(kept) was removed") }
        #expect(lines.lines.contains("removed 2 request body spool files that a stopped server left in \(scratch.path)"))
        await server.stop()
    }
}
