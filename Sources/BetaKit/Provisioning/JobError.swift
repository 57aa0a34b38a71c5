/// Why a job command was refused: each case names the job and the fix.
public enum JobError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// No job has this id.
    case unknownJob(Int64)
    /// `retry` on a job that has not stopped (running, queued or already succeeded).
    case notRetryable(id: Int64, state: Job.State)
    /// `cancel` on a job that already finished.
    case alreadyFinished(id: Int64, state: Job.State)
    /// `apple auto on` without what it needs; the reasons name each missing piece and its command.
    case autoRequirements([String])
    /// A batching window that is not a whole number of seconds between 0 and a day.
    case invalidWindow(String)

    /// A sentence naming the job and the fix.
    public var description: String {
        switch self {
        case let .unknownJob(id):
            return "there is no job \(id); list them with `betactl jobs`"
        case let .notRetryable(id, state):
            return "job \(id) is \(state.rawValue), so there is nothing to retry; only failed or cancelled jobs (or ones waiting to retry) can be retried"
        case let .alreadyFinished(id, state):
            return "job \(id) already \(state == .succeeded ? "succeeded" : "is \(state.rawValue)"), so it cannot be cancelled"
        case let .autoRequirements(missing):
            return "automatic provisioning needs " + missing.joined(separator: "; ") + ", then run `betactl apple auto on` again"
        case let .invalidWindow(text):
            return "\"\(text)\" is not a batching window; give whole seconds from 0 to 86400 (the default is 120)"
        }
    }

    /// Unknown jobs and wrong states are refusals; a bad window is invalid input.
    public var category: ErrorCategory {
        switch self {
        case .invalidWindow: .invalidInput
        default: .refused
        }
    }
}
