import BetaKit

/// The JSON shapes of the job queue and the automatic provisioning switch, shared by the CLI
/// (`jobs --json`, `apple auto status --json`) and the API (`/api/v1/jobs`, `/api/v1/apple/auto`).
public enum JobJSON {
    /// One job.
    public struct JobEntry: Encodable, Sendable {
        /// The job's number.
        public var id: Int64
        /// `register-device` or `refresh-apps`.
        public var kind: String
        /// `queued`, `running`, `waiting`, `succeeded`, `failed` or `cancelled`.
        public var state: String
        /// The step reached: `register`, `registered`, `batching`, `profiles`, `resign` or `ready`.
        public var step: String
        /// What it is about (UDIDs).
        public var subject: String?
        /// Runs started so far.
        public var attempts: Int
        /// When it is due next (ISO 8601), while it waits.
        public var nextAttempt: String?
        /// The last failure: a sentence naming the problem and the fix.
        public var lastError: String?
        /// When it was queued (ISO 8601).
        public var created: String
        /// When it last changed (ISO 8601).
        public var updated: String
        /// When it finished (ISO 8601).
        public var finished: String?
    }

    /// The switch.
    public struct AutoJSON: Encodable, Sendable {
        /// Whether approved devices are provisioned automatically.
        public var enabled: Bool
        /// The batching window, seconds.
        public var window: Int
        /// What the flow lacks, each naming the command that provides it.
        public var missing: [String]
        /// The approval rule in force.
        public var rule: DeviceRequestJSON.RuleJSON
    }

    /// One job's JSON.
    public static func job(_ job: Job) -> JobEntry {
        JobEntry(id: job.id, kind: job.kind, state: job.state.rawValue, step: job.step, subject: job.subject, attempts: job.attempts,
                 nextAttempt: job.state == .waiting || job.state == .queued ? job.nextAttemptAt.map(Timestamp.string) : nil,
                 lastError: job.lastError, created: Timestamp.string(job.createdAt), updated: Timestamp.string(job.updatedAt),
                 finished: job.finishedAt.map(Timestamp.string))
    }

    /// The switch's JSON.
    public static func auto(_ status: AutoProvisioning.Status) -> AutoJSON {
        AutoJSON(enabled: status.enabled, window: status.window, missing: status.missing, rule: DeviceRequestJSON.rule(status.rule))
    }
}
