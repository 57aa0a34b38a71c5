import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for a child from async code: the look at the child is the same non-blocking `waitpid`
/// as `wait()`, but the pauses between looks are `Task.sleep`, so a test waiting for a child does
/// not hold one of the cooperative pool's threads (there are only as many as cores).
extension ChildProcess {
    /// Waits until the child ends and returns how.
    @discardableResult
    public func exit() async -> Termination {
        var pause = 1
        while true {
            if let done = termination { return done }
            guard (try? await Task.sleep(for: .milliseconds(pause))) != nil else { return wait() }
            pause = min(pause * 2, 20)
        }
    }

    /// Waits up to `timeout` seconds for the child to end; nil if it still runs.
    public func exited(timeout: TimeInterval) async -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause = 1
        while Date() < deadline {
            if let done = termination { return done }
            guard (try? await Task.sleep(for: .milliseconds(pause))) != nil else { return wait(timeout: deadline.timeIntervalSinceNow) }
            pause = min(pause * 2, 20)
        }
        return termination
    }

    /// `stop(grace:)` for async code: SIGTERM to the child's group, SIGKILL after `grace` seconds,
    /// and the way it ended.
    @discardableResult
    public func stopped(grace: TimeInterval = 5) async -> Termination {
        if isRunning {
            killGroup(SIGTERM)
            if await exited(timeout: grace) == nil { killGroup(SIGKILL) }
        }
        return await exit()
    }
}
