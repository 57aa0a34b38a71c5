#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls about the calling thread.
public enum CurrentThread {
    /// Blocks the calling thread for `duration` (`nanosleep`), sleeping the rest again when a
    /// signal interrupts it. A zero or negative duration returns at once.
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && currentErrno() == EINTR {
            request = remaining
        }
    }

    /// The CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`); zero where
    /// the clock cannot be read.
    public static var cpuTime: Duration {
        var time = timespec()
        #if canImport(Glibc)
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        #else
        guard clock_gettime(_CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        #endif
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}
