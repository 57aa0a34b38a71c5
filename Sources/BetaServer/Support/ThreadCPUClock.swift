import PosixIO

/// The CPU time the calling thread has used: unlike a wall clock it does not advance while the
/// thread waits for a core, so measures of work stay true on a loaded machine.
enum ThreadCPUClock {
    /// The calling thread's CPU time so far; zero where the clock cannot be read.
    static func now() -> Duration {
        CurrentThread.cpuTime
    }
}
