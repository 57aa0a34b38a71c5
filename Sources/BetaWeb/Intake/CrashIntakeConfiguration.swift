import BetaKit

/// Limits and switches of crash intake (`serve --crash-max-size`, `--crash-rate-limit`).
public struct CrashIntakeConfiguration: Sendable, Equatable {
    /// Largest single report accepted; a larger one is answered 413 and nothing is stored.
    public var maxReportBytes: Int64 = CrashStore.defaultMaxReportBytes
    /// Reports one ingest key or one tester link may send per minute, on average; 0 turns the
    /// limit off. Past it requests are answered 429 with `Retry-After`.
    public var reportsPerMinute: Int = 60
    /// How many reports may arrive at once before the per-minute rate applies.
    public var burst: Int = 20
    /// Most report files in one upload from the tester page.
    public var maxFilesPerUpload: Int = 10
    /// Most reports stored by one group commit.
    public var maxBatch: Int = 64
    /// Whether the server processes the queue in the background (tests turn it off to look at
    /// queued reports).
    public var processInBackground = true

    /// The defaults described on each property.
    public init() {}
}
