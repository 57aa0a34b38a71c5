#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on a thread with a small, fixed stack, to show that a parser's nesting limit keeps its
/// recursion within the stacks it runs on in the server (1 MiB for event loops and blocking-pool
/// workers), with room to spare for the frames the server has already pushed.
public enum SmallStack {
    /// Half of a server worker's 1 MiB stack.
    public static let halfAWorkersStack = 512 * 1024

    private final class Job: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread whose stack is `size` bytes and returns its result. A stack
    /// overflow crashes the test process, which fails the run.
    public static func run<R: Sendable>(size: Int = halfAWorkersStack, _ body: @escaping @Sendable () -> R) -> R {
        let result = Locked<R?>(nil)
        let job = Job { result.withLock { $0 = body() } }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        precondition(pthread_attr_setstacksize(&attributes, size) == 0, "stack size \(size) refused")
        let context = Unmanaged.passRetained(job).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let created = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        if let thread { pthread_join(thread, nil) }
        #else
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_join(thread, nil)
        #endif
        guard let value = result.value else { preconditionFailure("the thread returned no result") }
        return value
    }
}
