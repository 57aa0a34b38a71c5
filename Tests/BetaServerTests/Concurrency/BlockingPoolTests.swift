import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
@testable import BetaServer

@Suite struct BlockingPoolTests {
    @Test func workRunsOnThePoolsOwnThreadsAndReturnsItsResult() async throws {
        let pool = try BlockingPool(configuration: .init(threads: 2, queueLimit: 8), name: "test-pool")
        defer { pool.shutdown() }
        let name = try await pool.run { () -> String in
            // The thread's name as the kernel shows it in `top -H`.
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? ""
        }
        #expect(name.hasPrefix("test-pool-"))
        #expect(try await pool.run { 6 * 7 } == 42)
    }

    /// A finished job keeps nothing its work captured (a job used to hold its own body in a cycle,
    /// so every upload body given to the pool stayed in memory for good).
    @Test func finishedWorkReleasesWhatItCaptured() async throws {
        final class Payload: Sendable { let bytes = [UInt8](repeating: 1, count: 1024) }
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 8))
        defer { pool.shutdown() }
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            #expect(try await pool.run { payload.bytes.count } == 1024)
        }
        // The worker drops the job right after running it; the next job runs after that.
        _ = try await pool.run { 0 }
        #expect(released == nil)
    }

    @Test func errorsThrownByTheWorkReachTheCaller() async throws {
        struct Boom: Error {}
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 8))
        defer { pool.shutdown() }
        await #expect(throws: Boom.self) { try await pool.run { throw Boom() } }
    }

    @Test func blockingWorkDoesNotStarveTheConcurrencyPool() async throws {
        // Four jobs block four pool threads at once (more than the cooperative pool has on a small
        // machine), and meanwhile ordinary tasks still run to completion: the concurrency pool is
        // never pinned. Had the jobs run on it, they could not all have started.
        let pool = try BlockingPool(configuration: .init(threads: 4, queueLimit: 8))
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let sleepers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0 ..< 4 {
                    group.addTask { () async throws -> Void in try await pool.run { started.withLock { $0 += 1 }; gate.wait() } }
                }
                try await group.waitForAll()
            }
        }
        for _ in 0 ..< 6000 where started.value < 4 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(started.value == 4, "all four blocking jobs run at once")
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 1 ... 8 { group.addTask { try await Task.sleep(for: .milliseconds(1)); return value } }
            return try await group.reduce(0, +)
        }
        #expect(sums == 36)
        #expect(started.value == 4)
        for _ in 0 ..< 4 { gate.signal() }
        try await sleepers.value
    }

    @Test func aFullQueueIsRefusedAtOnceWith503() async throws {
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 2))
        defer { pool.shutdown() }
        // The gate blocks a pool thread (which is what the pool is for); the test itself only ever
        // awaits, so the concurrency pool stays free.
        let gate = DispatchSemaphore(value: 0)
        let running = Locked(false)
        let first = Task { try await pool.run { running.withLock { $0 = true }; gate.wait() } }
        while !running.value { try await Task.sleep(for: .milliseconds(5)) }
        let queued = (0 ..< 2).map { _ in Task { try await pool.run { 1 } } }
        while pool.waitingJobs < 2 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: BlockingPoolError.overloaded(waiting: 2)) { try await pool.run { 1 } }
        #expect(BlockingPoolError.overloaded(waiting: 2).httpStatus == .serviceUnavailable)
        gate.signal()
        try await first.value
        for task in queued { #expect(try await task.value == 1) }
    }

    @Test func aCancelledWaitingJobIsSkipped() async throws {
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 4))
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let running = Locked(false)
        let blocker = Task { try await pool.run { running.withLock { $0 = true }; gate.wait() } }
        while !running.value { try await Task.sleep(for: .milliseconds(5)) }
        let ran = Locked(false)
        let waiting = Task { try await pool.run { ran.withLock { $0 = true } } }
        while pool.waitingJobs < 1 { try await Task.sleep(for: .milliseconds(5)) }
        waiting.cancel()
        gate.signal()
        try await blocker.value
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!ran.value)
    }

    @Test func afterShutdownNewWorkIsRefused() async throws {
        let pool = try BlockingPool(configuration: .init(threads: 1, queueLimit: 4))
        pool.shutdown()
        await #expect(throws: BlockingPoolError.self) { try await pool.run { 1 } }
    }
}

/// A job's closure, and what it captured, is released once the job has run: a pool that kept it
/// would keep every request's buffers and files alive for ever.
@Suite struct BlockingPoolReleaseTests {
    final class Captured: Sendable {}

    @Test func whatAJobCapturedIsReleasedOnceItRan() async throws {
        let pool = try BlockingPool(configuration: .init(threads: 2, queueLimit: 8))
        defer { pool.shutdown() }
        let released = Locked(0)
        for _ in 0 ..< 8 {
            weak var watched: Captured?
            do {
                let captured = Captured()
                watched = captured
                try await pool.run { _ = captured }
            }
            // The pool thread may still be unwinding from the job: give it a moment.
            for _ in 0 ..< 200 where watched != nil { try await Task.sleep(for: .milliseconds(5)) }
            if watched == nil { released.withLock { $0 += 1 } }
        }
        #expect(released.value == 8)
    }
}
