#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thread running a poller (epoll or kqueue) over its connections, plus a queue of work from other threads.
///
/// Connections never migrate: every connection object is touched only by its
/// loop's thread. Other threads (handler tasks) reach it with `execute`, which
/// queues the closure and wakes the poller.
final class EventLoop: @unchecked Sendable {
    typealias Work = LoopMailbox.Work

    /// How long a loop whose `accept` ran out of descriptors waits before trying again when none
    /// of its own connections closes meanwhile (descriptors freed elsewhere wake nobody).
    static let acceptRetry: Duration = .seconds(1)
    /// How long a stopping loop waits, after the drain deadline cancelled them, for request
    /// handlers to notice and finish.
    static let cancellationGrace: Duration = .seconds(1)
    /// Size of the buffer for discarded input and the sendfile fallback.
    static let scratchSize = 64 * 1024

    let index: Int
    let core: ServerCore
    let mailbox: LoopMailbox
    private let poller: Int32
    private let waker: Int32
    private var executorStorage: AnyObject?

    // Loop-confined state.
    var connections: [UInt64: Connection] = [:]
    /// Every loop of the server (including this one), set before the threads start.
    var siblings: [EventLoop] = []
    private var nextSibling = 0
    private var listeners: [Int32] = []
    private var nextToken: UInt64 = 1 << 32
    private(set) var draining = false
    private var drainDeadline: UInt64 = 0
    private var acceptPaused = false
    private var acceptRetryAt: UInt64 = 0
    /// Request handler and response streaming tasks started by this loop's connections and not yet finished.
    private(set) var runningTasks = 0
    private var dateSecond: time_t = 0
    private(set) var dateField: [UInt8] = []
    private(set) var now: UInt64 = Monotonic.now()
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: EventLoop.scratchSize, alignment: 16)

    init(index: Int, core: ServerCore) throws(ServerError) {
        self.index = index
        self.core = core
        self.nextSibling = index
        var wakerFD: Int32 = -1
        poller = shim_poller_create(&wakerFD)
        guard poller >= 0 else { throw .system(operation: "creating the event poller", errno: errno) }
        waker = wakerFD
        mailbox = LoopMailbox(waker: wakerFD)
        if #available(macOS 15.0, *) { executorStorage = LoopExecutor(mailbox: mailbox) }
    }

    deinit {
        // A loop that never ran (a failed start) still owns its poller, and tasks may still hold
        // its executor: closing the mailbox releases both, and later jobs run elsewhere.
        let poller = self.poller, waker = self.waker
        let leftovers = mailbox.close {
            close(poller)
            if waker != poller { close(waker) }
        }
        for work in leftovers { dispose(work) }
        scratch.deallocate()
    }

    /// The task executor that runs jobs on this loop's thread, where supported.
    @available(macOS 15.0, *)
    var executor: LoopExecutor? { executorStorage as? LoopExecutor }

    var inLoop: Bool { mailbox.onLoopThread }

    /// Runs `work` on the loop: inline when already there, otherwise queued.
    func run(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { enqueue(.closure(work)) }
    }

    func enqueue(_ work: Work) {
        if !mailbox.post(work) { dispose(work) }
    }

    /// Work that arrives after the loop ended: a handed-over socket is closed, a task job still
    /// needs a thread, and closures for connections that no longer exist are dropped.
    private func dispose(_ work: Work) {
        switch work {
        case .adopt(let fd, let peer, let admission):
            close(fd)
            core.release(admission, peer: peer)
        case .job(let job):
            if #available(macOS 15.0, *), let executor { executor.runElsewhere(job) }
        case .closure:
            break
        }
    }

    func addListener(_ fd: Int32) throws(ServerError) {
        guard shim_poller_add_listener(poller, fd, UInt64(listeners.count + 1)) == 0 else {
            throw .system(operation: "registering the listening socket", errno: errno)
        }
        listeners.append(fd)
    }

    // MARK: Thread body

    func runLoop() {
        mailbox.bindToCurrentThread()
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        let tick = core.configuration.timeouts.tick.nanoseconds
        var nextTick = Monotonic.now() &+ tick
        while true {
            runQueued()
            if draining && connections.isEmpty
                && (runningTasks == 0 || now >= drainDeadline &+ EventLoop.cancellationGrace.nanoseconds) { break }
            let pending = mailbox.hasWork
            let timeout = pending ? 0 : Int32(max(1, min(1000, Int64(nextTick &- min(nextTick, Monotonic.now())) / 1_000_000)))
            let count = shim_poller_wait(poller, &tokens, &events, 256, timeout)
            now = Monotonic.now()
            if count > 0 {
                for index in 0..<Int(count) { dispatch(token: tokens[index], events: events[index]) }
            }
            if now >= nextTick {
                timers()
                nextTick = now &+ tick
            }
        }
        if runningTasks > 0 {
            core.log.message("warning: \(runningTasks) request handler\(runningTasks == 1 ? "" : "s") did not stop "
                + "when cancelled at the end of the shutdown grace period; stopping without \(runningTasks == 1 ? "it" : "them")")
        }
        for connection in Array(connections.values) { connection.close() }
        let poller = self.poller, waker = self.waker
        let leftovers = mailbox.close {
            close(poller)
            if waker != poller { close(waker) }
        }
        for work in leftovers { dispose(work) }
        siblings = []
        core.loopFinished()
    }

    private func runQueued() {
        var rounds = 0
        while rounds < 4 {
            let items = mailbox.takeAll()
            if items.isEmpty { return }
            for item in items {
                switch item {
                case .closure(let work): work()
                case .adopt(let fd, let peer, let admission): adopt(fd: fd, peer: peer, admission: admission)
                case .job(let job):
                    if #available(macOS 15.0, *), let executor {
                        guard let observer = core.configuration.loopWorkObserver else {
                            job.runSynchronously(on: executor.asUnownedTaskExecutor())
                            continue
                        }
                        let start = ThreadCPUClock.now()
                        job.runSynchronously(on: executor.asUnownedTaskExecutor())
                        observer(ThreadCPUClock.now() - start)
                    }
                }
            }
            rounds += 1
        }
    }

    private func dispatch(token: UInt64, events: UInt32) {
        if token == UInt64.max {
            shim_waker_drain(waker)
            return
        }
        if token <= UInt64(listeners.count) {
            acceptConnections(listeners[Int(token) - 1])
            return
        }
        guard let connection = connections[token] else { return }
        if events & UInt32(SHIM_EVENT_WRITABLE) != 0 { connection.socketWritable() }
        if events & UInt32(SHIM_EVENT_READABLE) != 0, !connection.closed { connection.socketReadable() }
    }

    private func acceptConnections(_ listener: Int32) {
        guard !draining, !acceptPaused else { return }
        var address = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        for _ in 0..<64 {
            let fd = shim_accept(listener, &address, Int32(address.count), &port)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    pauseAccepting()
                    return
                default:
                    return  // EAGAIN: nothing more is waiting
                }
            }
            let peer = address.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
            let admission = core.admit(peer: peer)
            if !admission.isAdmitted && core.rejecting.load(ordering: .relaxed) > core.budget.lingeringRefusals {
                shim_set_abortive_close(fd)
                close(fd)
                core.release(admission, peer: peer)
                continue
            }
            // Whichever loop wins the accept race would otherwise keep a whole burst of connections
            // (wrk opening 50 at once lands on one thread); spread them round-robin instead.
            let target = siblings.isEmpty ? self : siblings[nextSibling % siblings.count]
            nextSibling &+= 1
            if target === self {
                adopt(fd: fd, peer: peer, admission: admission)
            } else {
                target.enqueue(.adopt(fd: fd, peer: peer, admission: admission))
            }
        }
    }

    /// Out of descriptors: a level-triggered listener would report the waiting connection again
    /// at once, and the loop would spin. It leaves the poller until a descriptor frees (one of
    /// this loop's connections closes) or `acceptRetry` passes; the waiting clients stay queued
    /// in the listen backlog meanwhile.
    private func pauseAccepting() {
        guard !acceptPaused else { return }
        acceptPaused = true
        acceptRetryAt = now &+ EventLoop.acceptRetry.nanoseconds
        for listener in listeners { _ = shim_poller_remove(poller, listener) }
        core.descriptorsExhausted(now: now)
    }

    private func resumeAccepting() {
        guard acceptPaused, !draining else { return }
        acceptPaused = false
        for (position, listener) in listeners.enumerated() {
            _ = shim_poller_add_listener(poller, listener, UInt64(position + 1))
        }
    }

    /// Takes ownership of an accepted socket on this loop's thread.
    func adopt(fd: Int32, peer: String, admission: Admission) {
        if draining {
            close(fd)
            core.release(admission, peer: peer)
            return
        }
        let token = nextToken
        nextToken &+= 1
        let connection = Connection(fd: fd, token: token, loop: self, peer: peer, admission: admission)
        guard shim_poller_add(poller, fd, token) == 0 else {
            connection.close()
            return
        }
        connections[token] = connection
        if !admission.isAdmitted { connection.reject(admission) }
    }

    /// Forgets a closed connection; its descriptor is free again, so accepting may resume.
    func remove(_ connection: Connection) {
        connections[connection.token] = nil
        resumeAccepting()
    }

    /// Counts a task a connection started; `taskFinished` must follow on this loop.
    func taskStarted() { runningTasks += 1 }

    /// Counts a task as done; a draining loop stops once none is left.
    func taskFinished() { runningTasks -= 1 }

    private func timers() {
        if acceptPaused && now >= acceptRetryAt { resumeAccepting() }
        if draining && now >= drainDeadline {
            // Closing cancels every connection's running handler; the loop then waits up to
            // `cancellationGrace` for them to finish.
            for connection in Array(connections.values) { connection.close() }
            return
        }
        for connection in Array(connections.values) { connection.checkTimers(now: now) }
    }

    /// The `Date` header line, refreshed once per second.
    func currentDateField() -> [UInt8] {
        let seconds = time(nil)
        if seconds != dateSecond {
            dateSecond = seconds
            dateField = Array("Date: \(HTTPDate.format(seconds))\r\n".utf8)
        }
        return dateField
    }

    /// Stops accepting, closes idle connections and lets busy ones finish until `deadline`.
    func beginDrain(deadline: UInt64) {
        guard !draining else { return }
        draining = true
        drainDeadline = deadline
        for listener in listeners { _ = shim_poller_remove(poller, listener) }
        for connection in Array(connections.values) { connection.drain() }
    }
}
