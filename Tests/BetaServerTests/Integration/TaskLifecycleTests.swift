import Foundation
import Synchronization
import Testing
@testable import BetaServer
import TestSupport

/// Request handlers are cancelled when their client goes away and when shutdown's grace period
/// ends, and shutdown returns only after they have finished. Each test has its own server, so the
/// tests run in parallel.
// Serialized: the in-process servers here answer on the test process's cooperative threads, and beside each
// other (and the rest of the suite) a loaded machine left some requests waiting past their clients' timeouts.
@Suite(.serialized) struct TaskLifecycleTests {
    /// A handler that waits (cancellably) far longer than any test, and records what happened.
    static func waitingRouter(_ events: LockedLines, cleanup: Duration = .zero) -> Router {
        var router = Router()
        // On the loop executor, so a busy shared pool (a full test run) cannot delay the handler.
        router.get("/wait", options: RouteOptions(execution: .eventLoop)) { _, _ in
            events.append("started")
            do {
                try await Task.sleep(for: .seconds(120))
                events.append("slept")
            } catch {
                events.append("cancelled")
                // Cleanup that takes a while (and cannot be cut short, the task being cancelled):
                // shutdown must wait for it.
                if cleanup > .zero {
                    let seconds = Double(cleanup.components.seconds) + Double(cleanup.components.attoseconds) / 1e18
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
                    }
                }
                events.append("finished")
                throw error
            }
            return .text("done")
        }
        router.get("/stream") { _, _ in
            Response(headers: ["Content-Type": "text/plain"], body: .stream { writer in
                events.append("streaming")
                do {
                    while true {
                        try await writer.write("tick\n")
                        try await Task.sleep(for: .milliseconds(20))
                    }
                } catch {
                    events.append("stream ended")
                    throw error
                }
            })
        }
        return router
    }

    static func waitFor(_ event: String, in events: LockedLines, seconds: Double = 60) async throws -> Bool {
        for _ in 0..<Int(seconds * 40) {
            if events.lines.contains(event) { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    @Test func aHandlerIsCancelledWhenItsClientGoesAway() async throws {
        let events = LockedLines()
        let server = try TestServer(router: Self.waitingRouter(events))
        var client: RawClient? = try RawClient(port: server.port)
        client?.send("GET /wait HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try await Self.waitFor("started", in: events))
        client = nil
        #expect(try await Self.waitFor("cancelled", in: events), "events: \(events.lines)")
        #expect(!events.lines.contains("slept"))
        await server.stop()
    }

    @Test func aStreamedResponseStopsWhenItsClientGoesAway() async throws {
        let events = LockedLines()
        let server = try TestServer(router: Self.waitingRouter(events))
        var client: RawClient? = try RawClient(port: server.port)
        client?.send("GET /stream HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = try await blocking { [client] in client?.read(until: "tick\n", count: 3) }
        client = nil
        #expect(try await Self.waitFor("stream ended", in: events), "events: \(events.lines)")
        await server.stop()
    }

    @Test func shutdownCancelsHandlersAtItsDeadlineAndWaitsForThemToFinish() async throws {
        let events = LockedLines()
        let server = try TestServer(router: Self.waitingRouter(events, cleanup: .milliseconds(300)))
        let client = try RawClient(port: server.port)
        client.send("GET /wait HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try await Self.waitFor("started", in: events))
        let started = ContinuousClock.now
        server.server.shutdown(gracePeriod: .milliseconds(500))
        await server.server.waitUntilStopped()
        let elapsed = ContinuousClock.now - started
        // The handler was running until the deadline, was cancelled there, and its cleanup
        // finished before waitUntilStopped returned.
        #expect(events.lines == ["started", "cancelled", "finished"])
        #expect(elapsed >= .milliseconds(500))
        // Bounded, not fast: without the fix shutdown waits for the handler forever; a busy machine
        // may take seconds to schedule the loops.
        #expect(elapsed < .seconds(60), "shutdown took \(elapsed)")
        withExtendedLifetime(client) {}
    }

    @Test func shutdownStopsWaitingForAHandlerThatIgnoresCancellation() async throws {
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let lines = LockedLines()
        var router = Router()
        router.get("/stuck", options: RouteOptions(execution: .eventLoop)) { _, _ in
            // Not cancellable: only the test resumes it.
            await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            return .text("late")
        }
        let server = try TestServer(router: router, log: ServerLog(message: { lines.append($0) }, access: nil))
        let client = try RawClient(port: server.port)
        client.send("GET /stuck HTTP/1.1\r\nHost: h\r\n\r\n")
        for _ in 0..<1200 where gate.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(25)) }
        let started = ContinuousClock.now
        server.server.shutdown(gracePeriod: .milliseconds(200))
        await server.server.waitUntilStopped()
        let elapsed = ContinuousClock.now - started
        // Bounded, not fast: without the fix shutdown waits for the handler forever; a busy machine
        // may take seconds to schedule the loops.
        #expect(elapsed < .seconds(60), "shutdown took \(elapsed)")
        #expect(lines.lines.contains { $0.contains("1 request handler did not stop when cancelled") })
        // The handler may finish later; its loop is gone, and nothing breaks.
        gate.withLock { $0?.resume() }
        try await Task.sleep(for: .milliseconds(100))
        withExtendedLifetime(client) {}
    }

    @Test @available(macOS 15.0, *)
    func aLoopExecutorOutlivingItsLoopStillRunsTasks() async throws {
        let core = ServerCore(configuration: ServerConfiguration(), router: Router(), chain: { _, _ in Response(status: .ok) },
                              trusted: try TrustedProxies([]), log: .discarding,
                              budget: DescriptorBudget(limit: 1024)) {}
        var loop: EventLoop? = try EventLoop(index: 0, core: core)
        let executor = try #require(loop?.executor)
        weak let released = loop
        loop = nil
        #expect(released == nil, "the executor must not keep its loop alive")
        // With the loop gone, a job for its executor runs on a global thread instead.
        let value = await Task(executorPreference: executor) { 6 * 7 }.value
        #expect(value == 42)
    }
}
