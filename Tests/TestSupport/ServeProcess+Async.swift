import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting and stopping `betactl serve` from async code without holding a cooperative thread
/// while the server starts up or shuts down.
extension ServeProcess {
    /// Starts `betactl ARGUMENTS` as `init` does, waiting for its "listening on" line on a thread of
    /// its own.
    public static func start(_ cli: Betactl, _ arguments: [String], timeout: TimeInterval = 60) async throws -> ServeProcess {
        try await blocking { try ServeProcess(cli, arguments, timeout: timeout) }
    }

    /// `stop(timeout:)` for async code: sends SIGTERM and waits (up to `timeout`) for the exit
    /// status; -1 when it had to be killed.
    @discardableResult
    public func stopped(timeout: TimeInterval = 30) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if await process.exited(timeout: timeout) == nil {
            kill(process.processIdentifier, SIGKILL)
            await process.exit()
            return -1
        }
        _ = try? await blocking { self.drainOutput() }
        return process.terminationStatus
    }
}
