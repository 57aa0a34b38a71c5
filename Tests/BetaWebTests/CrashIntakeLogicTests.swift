import Foundation
import Testing
@testable import BetaWeb
import BetaKit

@Suite struct CrashIntakeLogicTests {
    @Test func theRateLimitAllowsABurstThenTheRate() {
        let limiter = RateLimiter(perMinute: 60, burst: 3)
        let start = ContinuousClock.now
        #expect(limiter.take("k", now: start) == nil)
        #expect(limiter.take("k", cost: 2, now: start) == nil)
        let wait = limiter.take("k", now: start)
        #expect(wait == .milliseconds(1000), "one report a second refills")
        #expect(limiter.take("other", now: start) == nil, "each key has its own bucket")
        #expect(limiter.take("k", now: start + .milliseconds(1000)) == nil)
        #expect(RateLimiter.retryAfterSeconds(.milliseconds(1001)) == 2)
        #expect(RateLimiter.retryAfterSeconds(.milliseconds(10)) == 1)
    }

    @Test func aZeroRateMeansNoLimit() {
        let limiter = RateLimiter(perMinute: 0, burst: 1)
        for _ in 0 ..< 100 { #expect(limiter.take("k") == nil) }
    }

    @Test func logsNeverShowIngestKeysOrTesterTokens() {
        #expect(BetaWebApplication.redactTarget("/api/v1/crashes?key=SECRET&name=a.ips") == "/api/v1/crashes?key=…&name=a.ips")
        #expect(BetaWebApplication.redactTarget("/api/2/apps/SECRET/crashes/upload") == "/api/2/apps/…/crashes/upload")
        #expect(BetaWebApplication.redactTarget("/api/kscrash/SECRET") == "/api/kscrash/…")
        #expect(BetaWebApplication.redactTarget("/t/TOKEN/crashes") == "/t/…/crashes")
        #expect(BetaWebApplication.redactTarget("/assets/app.css?v=1") == "/assets/app.css?v=1")
    }
}
