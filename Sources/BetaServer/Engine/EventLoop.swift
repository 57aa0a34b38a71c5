#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One thread running a poller (epoll or kqueue) over its connections, plus a queue of work from other threads.
///
/// Connections never migrate: every connection object is touched only by its
/// loop's thread. Other threads (handler tasks) reach it with `execute`, which
/// queues the closure and wakes the poller.
final class EventLoop: @unchecked Sendable {
    enum Work {
        case closure(@Sendable () -> Void)
        case job(UnownedJob)
        /// An accepted socket handed over by the loop that accepted it.
        case adopt(fd: Int32, peer: String, admitted: Bool)
    }

    let index: Int
    let core: ServerCore
    private let poller: Int32
    private let waker: Int32
    private let queue = Mutex<[Work]>([])
    private let wakePending = Atomic<Bool>(false)
    private let threadID = Atomic<UInt>(0)
    private let finished = Atomic<Bool>(false)
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
    private var dateSecond: time_t = 0
    private(set) var dateField: [UInt8] = []
    private(set) var now: UInt64 = Monotonic.now()
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(index: Int, core: ServerCore) throws(ServerError) {
        self.index = index
        self.core = core
        self.nextSibling = index
        var wakerFD: Int32 = -1
        poller = shim_poller_create(&wakerFD)
        guard poller >= 0 else { throw .system(operation: "creating the event poller", errno: errno) }
        waker = wakerFD
        if #available(macOS 15.0, *) { executorStorage = LoopExecutor(loop: self) }
    }

    deinit {
        scratch.deallocate()
    }

    /// The task executor that runs jobs on this loop's thread, where supported.
    @available(macOS 15.0, *)
    var executor: LoopExecutor? { executorStorage as? LoopExecutor }

    var inLoop: Bool { threadID.load(ordering: .acquiring) == EventLoop.currentThreadID() }

    static func currentThreadID() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Runs `work` on the loop: inline when already there, otherwise queued.
    func run(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { enqueue(.closure(work)) }
    }

    func enqueue(_ work: Work) {
        if finished.load(ordering: .acquiring) {
            EventLoop.runElsewhere(work, loop: self)
            return
        }
        queue.withLock { $0.append(work) }
        if !inLoop && !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            _ = shim_waker_signal(waker)
        }
    }

    /// After the loop ends, queued task jobs still need a thread; closures for dead connections are dropped.
    private static func runElsewhere(_ work: Work, loop: EventLoop) {
        if case .adopt(let fd, _, let admitted) = work {
            close(fd)
            loop.core.release(admitted: admitted)
            return
        }
        guard case .job(let job) = work else { return }
        if #available(macOS 15.0, *), let executor = loop.executor {
            let unowned = executor.asUnownedTaskExecutor()
            let bound = LoopBound(value: job)
            DispatchQueue.global().async { bound.value.runSynchronously(on: unowned) }
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
        threadID.store(EventLoop.currentThreadID(), ordering: .releasing)
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        let tick = core.configuration.timeouts.tick.nanoseconds
        var nextTick = Monotonic.now() &+ tick
        while true {
            runQueued()
            if draining && connections.isEmpty { break }
            let pending = queue.withLock { !$0.isEmpty }
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
        for connection in Array(connections.values) { connection.close() }
        finished.store(true, ordering: .releasing)
        let leftovers = queue.withLock { queue in
            let items = queue
            queue.removeAll()
            return items
        }
        for work in leftovers { EventLoop.runElsewhere(work, loop: self) }
        close(poller)
        if waker != poller { close(waker) }
        siblings = []
        core.loopFinished()
    }

    private func runQueued() {
        wakePending.store(false, ordering: .releasing)
        var rounds = 0
        while rounds < 4 {
            let items = queue.withLock { queue -> [Work] in
                let items = queue
                queue.removeAll(keepingCapacity: true)
                return items
            }
            if items.isEmpty { return }
            for item in items {
                switch item {
                case .closure(let work): work()
                case .adopt(let fd, let peer, let admitted): adopt(fd: fd, peer: peer, admitted: admitted)
                case .job(let job):
                    if #available(macOS 15.0, *), let executor {
                        job.runSynchronously(on: executor.asUnownedTaskExecutor())
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
        guard !draining else { return }
        var address = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        for _ in 0..<64 {
            let fd = shim_accept(listener, &address, Int32(address.count), &port)
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE {
                    core.log.message("warning: out of file descriptors; raise the limit with ulimit -n")
                }
                return
            }
            let peer = address.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let admitted = core.admit()
            if !admitted && core.rejecting.load(ordering: .relaxed) > 256 {
                shim_set_abortive_close(fd)
                close(fd)
                continue
            }
            // Whichever loop wins the accept race would otherwise keep a whole burst of connections
            // (wrk opening 50 at once lands on one thread); spread them round-robin instead.
            let target = siblings.isEmpty ? self : siblings[nextSibling % siblings.count]
            nextSibling &+= 1
            if target === self {
                adopt(fd: fd, peer: peer, admitted: admitted)
            } else {
                target.enqueue(.adopt(fd: fd, peer: peer, admitted: admitted))
            }
        }
    }

    /// Takes ownership of an accepted socket on this loop's thread.
    func adopt(fd: Int32, peer: String, admitted: Bool) {
        if draining {
            close(fd)
            core.release(admitted: admitted)
            return
        }
        let token = nextToken
        nextToken &+= 1
        let connection = Connection(fd: fd, token: token, loop: self, peer: peer, admitted: admitted)
        guard shim_poller_add(poller, fd, token) == 0 else {
            connection.close()
            return
        }
        connections[token] = connection
        if !admitted { connection.rejectOverCapacity() }
    }

    func remove(_ connection: Connection) {
        connections[connection.token] = nil
    }

    private func timers() {
        if draining && now >= drainDeadline {
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

/// Runs Swift tasks on an event loop thread, so handlers that opt in avoid a thread hop per request.
@available(macOS 15.0, *)
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    unowned let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        loop.enqueue(.job(UnownedJob(job)))
    }
}
