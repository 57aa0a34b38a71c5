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

    /// The environment as a dictionary, read straight from `environ` (cheaper at start-up than
    /// Foundation's `ProcessInfo`). The first "=" of an entry ends the name.
    public static func environment() -> [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(64)
        // Optional on purpose: Darwin declares `environ` implicitly unwrapped.
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = start else { return result }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                result[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Ignores `SIGPIPE`, so that writing to a closed pipe fails with `EPIPE` instead of ending
    /// the process.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Sets the file mode creation mask (`umask`) and returns the previous one.
    @discardableResult
    public static func setCreationMask(_ mask: FileMode) -> FileMode {
        umask(mask)
    }

    /// Ends the process with `status`, running `atexit` handlers and flushing C streams.
    public static func exit(_ status: Int32) -> Never {
        cExit(status)
    }
}

#if canImport(Glibc)
private func cExit(_ status: Int32) -> Never { Glibc.exit(status) }
#elseif canImport(Darwin)
private func cExit(_ status: Int32) -> Never { Darwin.exit(status) }
#endif
