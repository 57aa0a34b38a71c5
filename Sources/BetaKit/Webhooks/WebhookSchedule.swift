/// When deliveries are retried and when a failing endpoint is disabled.
public struct WebhookSchedule: Sendable, Equatable {
    /// The wait after each failed attempt, seconds; when they run out the delivery has failed.
    public var retryDelays: [Double]
    /// One attempt's limit, seconds.
    public var timeout: Double
    /// How long an endpoint may fail every delivery before it is disabled, seconds.
    public var disableAfter: Double
    /// The longest `Retry-After` honoured, seconds.
    public var maximumRetryAfter: Double

    /// A schedule.
    public init(retryDelays: [Double], timeout: Double = 10, disableAfter: Double = 86_400, maximumRetryAfter: Double = 21_600) {
        self.retryDelays = retryDelays
        self.timeout = timeout
        self.disableAfter = disableAfter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Ten attempts over about a day: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h apart
    /// (23 h 42 min in all); 10 s per attempt; an endpoint failing for a day is disabled.
    public static let standard = WebhookSchedule(retryDelays: [30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800])

    /// This schedule with every wait and the disabling period multiplied by `factor` (a test's
    /// day in seconds); the per-attempt timeout and `Retry-After` are kept.
    public func scaled(by factor: Double) -> WebhookSchedule {
        guard factor.isFinite, factor > 0 else { return self }
        return WebhookSchedule(retryDelays: retryDelays.map { $0 * factor }, timeout: timeout, disableAfter: disableAfter * factor,
                               maximumRetryAfter: maximumRetryAfter)
    }

    /// The wait after the `attempt`-th failure (1-based), or nil when no attempt is left.
    func delay(afterAttempt attempt: Int) -> Double? {
        attempt >= 1 && attempt <= retryDelays.count ? retryDelays[attempt - 1] : nil
    }

    /// A `Retry-After` value (seconds, or an HTTP date is not honoured) clamped to the maximum.
    func retryAfter(_ header: String?) -> Double? {
        guard let header, let seconds = Double(header.trimmed), seconds.isFinite, seconds >= 0 else { return nil }
        return min(seconds, maximumRetryAfter)
    }
}
