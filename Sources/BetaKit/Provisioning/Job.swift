#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One job of the durable queue (`jobs` table): what kind of work, where it stands, and what it
/// last said. Steps update the payload as they go, so a job killed at any point resumes from the
/// step it reached.
public struct Job: Sendable, Equatable {
    /// Where a job stands.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Due to run (at `nextAttemptAt`, or now).
        case queued
        /// Taken by a process, which is working on it.
        case running
        /// Waiting: for its batching window to close, or to retry after a transient failure.
        case waiting
        /// Done.
        case succeeded
        /// Stopped by a permanent failure (or too many transient ones); `lastError` says why and the fix.
        case failed
        /// Cancelled by the admin.
        case cancelled

        /// Whether the job will not run again by itself.
        public var isFinished: Bool { self == .succeeded || self == .failed || self == .cancelled }
    }

    /// The job's number.
    public var id: Int64
    /// What it does (`JobKind`'s raw values, or another kind a later version adds).
    public var kind: String
    /// Where it stands.
    public var state: State
    /// The step reached (kind-specific: `register`, `batching`, `profiles`, `resign`, `ready`).
    public var step: String
    /// What it is about, for people: a UDID, a list of them.
    public var subject: String?
    /// The kind's JSON state.
    public var payload: String
    /// Runs started so far.
    public var attempts: Int
    /// When it is due next (nil: now).
    public var nextAttemptAt: Date?
    /// The last failure, one sentence with the fix; nil once it succeeded.
    public var lastError: String?
    /// When it was queued.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// When it finished.
    public var finishedAt: Date?
}

/// The kinds of job the provisioning flow queues.
public enum JobKind: String, Sendable {
    /// Register one approved device with Apple (or find it registered), then join the open batch.
    case registerDevice = "register-device"
    /// One batch of devices: regenerate each affected app's profiles, re-sign the newest release
    /// of each app offered to the devices' testers, publish it superseding, mark the devices ready.
    case refreshApps = "refresh-apps"

    /// Words for tables and pages.
    public var label: String {
        switch self {
        case .registerDevice: "register device"
        case .refreshApps: "refresh profiles and builds"
        }
    }
}
