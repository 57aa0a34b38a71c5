import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `betactl` binary as a separate process, as a user would.
public struct Betactl: Sendable {
    /// What a finished run printed and how it exited.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// The binary SwiftPM built next to this test bundle.
    public static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0 ..< 5 {
            let candidate = directory.appendingPathComponent("betactl")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/betactl")
    }()

    /// The home every run uses (`BETACTL_HOME`).
    public var home: String
    /// Variables added to (or overriding) the inherited environment.
    public var extraEnvironment: [String: String] = [:]

    /// A runner on `home`.
    public init(home: String, extraEnvironment: [String: String] = [:]) {
        self.home = home
        self.extraEnvironment = extraEnvironment
    }

    /// The environment every run gets: no colour decisions from the caller's terminal, our home, a fixed HOME.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["BETACTL_HOME"] = home
        env["NO_COLOR"] = nil
        env["BETACTL_NOW"] = nil
        for (key, value) in extraEnvironment { env[key] = value }
        return env
    }

    /// Starts betactl without waiting.
    public func start(_ arguments: [String], stdout: Pipe = Pipe(), stderr: Pipe = Pipe()) throws -> ChildProcess {
        try ChildProcess(Self.executable.path, arguments, environment: environment, output: .pipe(stdout), error: .pipe(stderr))
    }

    /// Starts betactl, kills it with SIGKILL after `microseconds` and waits for it; true when the
    /// kill landed before the command finished on its own. Crash-consistency sweeps call it with
    /// growing delays to stop a command at every stage of its work.
    public func killed(_ arguments: [String], afterMicroseconds microseconds: Int) throws -> Bool {
        let process = try ChildProcess(Self.executable.path, arguments, environment: environment)
        usleep(useconds_t(microseconds))
        process.send(SIGKILL)
        return process.wasSignalled
    }

    /// Runs betactl to completion.
    @discardableResult
    public func run(_ arguments: String...) throws -> Result { try run(arguments) }

    @discardableResult
    public func run(_ arguments: [String]) throws -> Result {
        let result = try runToolNow(Self.executable.path, arguments, timeout: 600, environment: environment)
        return Result(status: result.status, stdout: result.text, stderr: result.error)
    }

    /// Whether util-linux `script` is installed to give betactl a pseudo-terminal. macOS ships the
    /// BSD `script`, which has no `-e` or `-c`, so these tests run on Linux only.
    public static var terminalAvailable: Bool {
        #if os(Linux)
        FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
        false
        #endif
    }

    /// Runs `betactl ARGUMENTS` under a pseudo-terminal (util-linux `script -qec`), so standard
    /// input, output and error are all terminals, and returns everything the terminal showed.
    /// `shellSuffix` is appended to the shell command, for example `2>FILE` to take standard
    /// error off the terminal. TERM is xterm unless `environment` says otherwise.
    public func runOnTerminal(_ arguments: [String], shellSuffix: String = "", environment extra: [String: String] = [:]) throws -> String {
        let quoted = ([Self.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var env = environment
        env["TERM"] = "xterm"
        for (key, value) in extra { env[key] = value }
        let result = try runToolNow("/usr/bin/script", ["-qec", (quoted + [shellSuffix]).joined(separator: " "), "/dev/null"],
                                    timeout: 600, environment: env)
        return result.text
    }

    /// Runs and requires success, returning standard output.
    @discardableResult
    public func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "betactl \(arguments.joined(separator: " ")) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }
}
