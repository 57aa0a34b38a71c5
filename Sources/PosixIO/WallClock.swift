#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's wall clock (`time`): it jumps when the clock is set, so it dates things rather than
/// measuring intervals (see `MonotonicClock`).
public enum WallClock {
    /// Whole seconds since 1970-01-01 UTC.
    public static var seconds: Int { Int(time(nil)) }
}
