#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Token buckets by key (an ingest key, a tester link): `rate` tokens a minute, up to `burst`
/// saved up. Each request takes as many tokens as the reports it carries.
final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let perMinute: Int
    let burst: Int
    private let buckets = Mutex<[String: Bucket]>([:])
    // A server sees a handful of keys and links; this bounds a flood of made-up ones.
    static let maxBuckets = 10_000

    init(perMinute: Int, burst: Int) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
    }

    /// Takes `cost` tokens from `key`'s bucket; nil when allowed, else how long until they are there.
    func take(_ key: String, cost: Int = 1, now: ContinuousClock.Instant = .now) -> Duration? {
        guard perMinute > 0 else { return nil }
        let rate = Double(perMinute) / 60
        let cost = Double(min(max(cost, 1), burst))
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: Double(burst), updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(Double(burst), bucket.tokens + max(0, seconds) * rate)
            bucket.updated = now
            if bucket.tokens >= cost {
                bucket.tokens -= cost
                store(bucket, for: key, in: &buckets)
                return nil
            }
            store(bucket, for: key, in: &buckets)
            return .milliseconds(Int64(((cost - bucket.tokens) / rate * 1000).rounded(.up)))
        }
    }

    private func store(_ bucket: Bucket, for key: String, in buckets: inout [String: Bucket]) {
        if buckets[key] == nil, buckets.count >= Self.maxBuckets {
            // Full buckets say nothing a new bucket would not: drop them first.
            let full = buckets.filter { $0.value.tokens >= Double(burst) }.map(\.key)
            for key in full { buckets[key] = nil }
            if buckets.count >= Self.maxBuckets { buckets.removeAll() }
        }
        buckets[key] = bucket
    }

    /// Whole seconds to put in `Retry-After` for `wait`, at least 1.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        let components = wait.components
        return max(1, Int(components.seconds) + (components.attoseconds > 0 ? 1 : 0))
    }
}
