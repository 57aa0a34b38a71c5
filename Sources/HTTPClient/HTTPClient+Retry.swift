import PosixIO

extension HTTPClient {
    /// When to send a request again: on 429 and 5xx answers, and when a connection could not be
    /// made (nothing was sent). The wait honours `Retry-After` (seconds), else doubles from `baseDelay`.
    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included.
        public var maximumAttempts: Int
        /// The first wait without `Retry-After`, seconds.
        public var baseDelay: Double
        /// The longest wait, seconds, even when `Retry-After` asks for more.
        public var maximumDelay: Double

        /// The default: 4 attempts, waits of 1, 2, 4 s, never more than 60 s.
        public init(maximumAttempts: Int = 4, baseDelay: Double = 1, maximumDelay: Double = 60) {
            self.maximumAttempts = maximumAttempts
            self.baseDelay = baseDelay
            self.maximumDelay = maximumDelay
        }

        /// No retries.
        public static let none = RetryPolicy(maximumAttempts: 1)

        /// Whether a response with `status` is worth asking for again.
        public static func isRetryable(status: Int) -> Bool { status == 429 || (500 ... 599).contains(status) && status != 501 }

        /// The wait before attempt `attempt + 1` (attempt counts from 1), seconds.
        func delay(after attempt: Int, retryAfter: String?) -> Double {
            if let retryAfter, let seconds = Double(retryAfter.trimmingCharacters), seconds >= 0, seconds.isFinite {
                return min(seconds, maximumDelay)
            }
            let doubled = baseDelay * Double(1 << min(max(attempt - 1, 0), 16))
            return min(doubled, maximumDelay)
        }
    }

    /// One attempt, as `send(_:retrying:observer:)` reports it: the request, what came back, and how long it took.
    public struct Attempt: Sendable {
        /// The request.
        public var request: HTTPRequest
        /// The response, or why there was none.
        public var result: Result<HTTPResponse, HTTPClientError>
        /// Seconds the attempt took.
        public var seconds: Double
        /// 1 for the first attempt.
        public var number: Int
    }

    /// Sends `request`, again after a wait while the answer is 429 or 5xx (or no connection could be
    /// made) and attempts remain. `observer` sees every attempt (for logging); `sleep` waits (tests
    /// may count instead). Returns the last response.
    public func send(_ request: HTTPRequest, retrying policy: RetryPolicy, observer: (@Sendable (Attempt) -> Void)? = nil,
                     sleep: @Sendable (Double) -> Void = HTTPClient.sleep) throws(HTTPClientError) -> HTTPResponse {
        var attempt = 1
        while true {
            let started = HTTPClient.monotonicSeconds()
            let result: Result<HTTPResponse, HTTPClientError>
            do { result = .success(try send(request)) } catch { result = .failure(error) }
            observer?(Attempt(request: request, result: result, seconds: HTTPClient.monotonicSeconds() - started, number: attempt))
            switch result {
            case let .success(response):
                guard Self.RetryPolicy.isRetryable(status: response.status), attempt < policy.maximumAttempts else { return response }
                sleep(policy.delay(after: attempt, retryAfter: response.header("Retry-After")))
            case let .failure(error):
                guard error.isBeforeSending, attempt < policy.maximumAttempts else { throw error }
                sleep(policy.delay(after: attempt, retryAfter: nil))
            }
            attempt += 1
        }
    }

    /// Blocks the calling thread for `seconds`.
    public static let sleep: @Sendable (Double) -> Void = { seconds in
        guard seconds > 0, seconds.isFinite else { return }
        CurrentThread.sleep(for: .seconds(seconds))
    }

    /// A monotonic clock, seconds.
    public static func monotonicSeconds() -> Double {
        MonotonicClock.seconds
    }
}

extension String {
    var trimmingCharacters: Substring { Substring(self).trimmingSpaces }
}
