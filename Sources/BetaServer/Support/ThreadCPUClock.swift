#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time the calling thread has used: unlike a wall clock it does not advance while the
/// thread waits for a core, so measures of work stay true on a loaded machine.
enum ThreadCPUClock {
    /// The calling thread's CPU time so far; zero where the clock cannot be read.
    static func now() -> Duration {
        var time = timespec()
        #if canImport(Glibc)
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        #else
        guard clock_gettime(_CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        #endif
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}
