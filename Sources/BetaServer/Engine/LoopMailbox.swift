#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Dispatch
import Synchronization

/// The queue other threads hand work to an event loop through, and the waker that interrupts its poller.
///
/// The loop and its task executor each hold the mailbox strongly. A task can outlive its loop,
/// and its executor must then still have something valid to post to: a closed mailbox says so,
/// instead of the executor reaching through a reference to a loop that no longer exists.
final class LoopMailbox: Sendable {
    /// Work posted to a loop.
    enum Work: Sendable {
        case closure(@Sendable () -> Void)
        case job(UnownedJob)
        /// An accepted socket handed over by the loop that accepted it.
        case adopt(fd: Int32, peer: String, admission: Admission)
    }

    private struct State {
        var items: [Work] = []
        var wakePending = false
        var closed = false
    }

    private let state = Mutex(State())
    private let waker: Int32
    private let loopThread = Atomic<UInt>(0)

    init(waker: Int32) { self.waker = waker }

    /// Records the calling thread as the loop's, so work posted from it needs no wake-up.
    func bindToCurrentThread() { loopThread.store(LoopMailbox.currentThreadID(), ordering: .releasing) }

    /// Whether the caller runs on the loop's thread.
    var onLoopThread: Bool { loopThread.load(ordering: .acquiring) == LoopMailbox.currentThreadID() }

    static func currentThreadID() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Queues `work` and wakes the poller; false when the loop has finished and the caller must
    /// dispose of the work itself. The waker is signalled under the lock, so it can never be a
    /// descriptor `close` has already released (and the kernel perhaps handed to someone else).
    func post(_ work: Work) -> Bool {
        let fromLoop = onLoopThread
        return state.withLock { state in
            guard !state.closed else { return false }
            state.items.append(work)
            if !fromLoop && !state.wakePending {
                state.wakePending = true
                _ = shim_waker_signal(waker)
            }
            return true
        }
    }

    /// Everything queued so far; the next post wakes the poller again.
    func takeAll() -> [Work] {
        state.withLock { state in
            state.wakePending = false
            let items = state.items
            state.items.removeAll(keepingCapacity: true)
            return items
        }
    }

    /// Whether work is waiting.
    var hasWork: Bool { state.withLock { !$0.items.isEmpty } }

    /// Refuses all further work, runs `release` (which closes the poller and waker) under the
    /// lock, and returns what was still queued. Only the first call does anything.
    func close(_ release: () -> Void) -> [Work] {
        state.withLock { state in
            guard !state.closed else { return [] }
            state.closed = true
            release()
            let items = state.items
            state.items = []
            return items
        }
    }
}

/// Runs Swift tasks on an event loop thread, so handlers that opt in avoid a thread hop per request.
///
/// It holds the loop's mailbox, never the loop: once the loop has finished, jobs run on a global
/// dispatch thread instead.
@available(macOS 15.0, *)
final class LoopExecutor: TaskExecutor {
    private let mailbox: LoopMailbox

    init(mailbox: LoopMailbox) { self.mailbox = mailbox }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !mailbox.post(.job(unowned)) { runElsewhere(unowned) }
    }

    /// Runs a job whose loop has finished on a global thread; the task must still complete.
    func runElsewhere(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
