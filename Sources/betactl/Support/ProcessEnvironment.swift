import PosixIO

/// The process environment as a dictionary, read straight from `environ`: cheaper at start-up
/// than `ProcessInfo`, which every betactl run would otherwise pay for.
enum ProcessEnvironment {
    static func current() -> [String: String] { CurrentProcess.environment() }
}
