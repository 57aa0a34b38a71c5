import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that run real tools and servers.
///
/// Foundation's `Process.run()` in Swift 6.3.1 on Linux crashes now and then (a 256-byte over-read
/// while it lists `/proc/self/fd`, swift-corelibs-foundation PR #5472), and a suite that starts
/// hundreds of children hit it about one run in five. This type never goes through Foundation's
/// spawning. It also makes the child safe to lose track of:
/// - every descriptor but the three standard ones is closed in the child, so a child never holds
///   another child's pipe open (which would keep a reader waiting for an end of file forever);
/// - the child leads its own process group, so `killGroup` also stops what it started;
/// - on Linux the child gets SIGKILL when this test process dies (`setpriv --pdeathsig`, spawned
///   from one long-lived thread, since the signal follows the spawning thread), so a crashed test
///   run leaves no server behind to keep `swift test` waiting.
public final class ChildProcess: @unchecked Sendable {
    /// Where a standard stream of the child goes.
    public enum Stream {
        /// `/dev/null`.
        case null
        /// A file, created or truncated (for input: read from the start).
        case file(String)
        /// The child's end of a pipe; the parent's copy of that end is closed once the child runs.
        case pipe(Pipe)
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// The child's process id, which is also its process group id.
    public let processIdentifier: pid_t
    private let state = Locked<Termination?>(nil)
    /// The pipes handed to the child, kept so the parent's ends live as long as the child may write.
    private let streams: [Stream]

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    /// `environment`, when given, replaces the inherited one; `directory` is the working directory.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                directory: String? = nil, input: Stream = .null, output: Stream = .null, error: Stream = .null) throws {
        let env = environment ?? ProcessInfo.processInfo.environment
        guard let path = ChildProcess.resolve(executable, path: env["PATH"]) else {
            throw ChildProcessError(executable: executable, reason: "not found in PATH")
        }
        var argv = [path] + arguments
        if let directory { argv = ["/usr/bin/env", "-C", directory] + argv }
        #if os(Linux)
        if ChildProcess.setpriv { argv = ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] + argv }
        #endif
        let envp = env.map { "\($0.key)=\($0.value)" }
        let streams = [input, output, error]
        self.streams = streams
        let targets = streams.enumerated().map { Target($0.element, fd: $0.offset) }
        processIdentifier = try SpawnThread.shared.run { [argv] in try ChildProcess.spawn(argv, envp, targets) }
        // The parent's copies of the child's pipe ends must go, or the parent never sees an end of file.
        for (fd, stream) in streams.enumerated() {
            guard case .pipe(let pipe) = stream else { continue }
            try? (fd == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { poll() == nil }

    /// How the child ended; nil while it runs.
    public var termination: Termination? { poll() }

    /// Waits until the child ends and returns how.
    @discardableResult
    public func wait() -> Termination {
        var pause: useconds_t = 1000
        while true {
            if let done = poll() { return done }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Waits up to `timeout` seconds; nil if the child still runs.
    public func wait(timeout: TimeInterval) -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1000
        while Date() < deadline {
            if let done = poll() { return done }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return poll()
    }

    /// Foundation's name for `wait()`.
    public func waitUntilExit() { wait() }

    /// The exit status, or the signal's number when a signal ended it (as Foundation reports it).
    public var terminationStatus: Int32 {
        switch wait() {
        case .exited(let status), .signalled(let status): status
        }
    }

    /// Whether a signal ended the child (waits for it to end).
    public var wasSignalled: Bool {
        if case .signalled = wait() { return true }
        return false
    }

    /// Sends `signal` to the child alone.
    public func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Sends SIGTERM to the child.
    public func terminate() { send(SIGTERM) }

    /// Sends `signal` to the child's whole process group (what it started, too).
    public func killGroup(_ signal: Int32 = SIGKILL) {
        kill(-processIdentifier, signal)
    }

    /// Stops the child and its group: SIGTERM, then SIGKILL after `grace` seconds; waits for it.
    @discardableResult
    public func stop(grace: TimeInterval = 5) -> Termination {
        if isRunning {
            killGroup(SIGTERM)
            if wait(timeout: grace) == nil { killGroup(SIGKILL) }
        }
        return wait()
    }

    deinit {
        if state.value == nil {
            kill(-processIdentifier, SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    /// Reaps the child without blocking; the outcome is kept, since it can be reaped only once.
    private func poll() -> Termination? {
        state.withLock { state in
            if let state { return state }
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, WNOHANG)
            guard result == processIdentifier else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            let signal = status & 0x7f
            state = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return state
        }
    }

    #if os(Linux)
    private static let setpriv = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    #endif

    static func resolve(_ executable: String, path: String?) -> String? {
        if executable.contains("/") { return executable }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A child could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What was to run.
    public var executable: String
    /// Why it did not.
    public var reason: String
    /// Both.
    public var description: String { "cannot start \(executable): \(reason)" }
}
