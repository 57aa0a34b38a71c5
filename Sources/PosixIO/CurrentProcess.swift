#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the running process.
public enum CurrentProcess {
    /// The process id (`getpid`).
    public static var id: Int32 { getpid() }

    /// Whether a process with id `pid` exists (ours, or one we may not signal).
    public static func exists(_ pid: Int32) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }
}
