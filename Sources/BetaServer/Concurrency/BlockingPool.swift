#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A fixed set of threads for blocking work (SQLite, file opens, symbolication), so it never runs on
/// an event loop or pins Swift's cooperative pool: what `NIOThreadPool` is to SwiftNIO.
///
/// The queue is bounded: when `queueLimit` jobs already wait, `run` fails at once with
/// `BlockingPoolError.overloaded` (an HTTP 503) instead of letting latency grow without bound.
/// A job whose task is cancelled while it waits is skipped and throws `CancellationError`.
public final class BlockingPool: Sendable {
    /// How many threads and how long a queue.
    public struct Configuration: Sendable, Equatable {
        /// Worker threads; blocking calls beyond this many wait in the queue.
        public var threads: Int
        /// Most jobs waiting for a thread before new ones are refused.
        public var queueLimit: Int

        /// Two threads per core (at least four): SQLite reads and file opens mostly wait on the disk.
        public init(threads: Int = max(4, 2 * Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), queueLimit: Int = 4096) {
            self.threads = max(1, threads)
            self.queueLimit = max(1, queueLimit)
        }
    }

    /// The pool's settings.
    public let configuration: Configuration
    private let queue: JobQueue

    /// Starts the pool's threads, named `<name>-N`.
    public init(configuration: Configuration = Configuration(), name: String = "blocking") throws(ServerError) {
        self.configuration = configuration
        self.queue = JobQueue(limit: configuration.queueLimit)
        for index in 0 ..< configuration.threads {
            let queue = self.queue
            try LoopThread.start(name: "\(name)-\(index)", stackSize: 1 << 20) { queue.work() }
        }
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let job = Job()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                job.body = {
                    if job.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: Result { try body() })
                    }
                }
                if !queue.push(job) {
                    job.body = nil
                    continuation.resume(throwing: BlockingPoolError.overloaded(waiting: configuration.queueLimit))
                }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// Lets the threads finish the queued jobs and exit; later `run` calls are refused.
    public func shutdown() { queue.close() }

    /// Jobs waiting for a thread right now (for diagnostics and tests).
    public var waitingJobs: Int { queue.count }
}

/// Why blocking work was not run.
public enum BlockingPoolError: Error, Sendable, Equatable, CustomStringConvertible, HTTPResponseError {
    /// Too many jobs were already waiting.
    case overloaded(waiting: Int)

    /// A sentence naming the problem and what the client should do.
    public var description: String {
        switch self {
        case .overloaded(let waiting):
            "the server is busy (\(waiting) requests are waiting for disk or database work); retry in a moment"
        }
    }

    /// 503 Service Unavailable.
    public var httpStatus: HTTPStatus { .serviceUnavailable }
}

/// One queued call; `body` is set before the job is queued and read only by the thread that runs it.
private final class Job: @unchecked Sendable {
    var body: (() -> Void)?
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// A FIFO of jobs guarded by a POSIX mutex and condition variable (Synchronization's `Mutex` has no
/// condition variable, and idle threads must sleep rather than spin).
private final class JobQueue: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var jobs: [Job?] = []
    private var head = 0
    private var closed = false
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    var count: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return jobs.count - head
    }

    func push(_ job: Job) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !closed, jobs.count - head < limit else { return false }
        jobs.append(job)
        pthread_cond_signal(&condition)
        return true
    }

    func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// A worker thread's life: take jobs until the queue is closed and empty.
    func work() {
        while let job = pop() {
            // The body refers to its job (to see a cancellation), so the job lets go of the body
            // before running it: otherwise the pair keeps each other, and everything the caller's
            // closure captured, alive for ever.
            let body = job.body
            job.body = nil
            body?()
        }
    }

    private func pop() -> Job? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while head == jobs.count {
            if closed { return nil }
            pthread_cond_wait(&condition, &mutex)
        }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        // Compact now and then so the array does not grow for ever.
        if head > 1024 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
