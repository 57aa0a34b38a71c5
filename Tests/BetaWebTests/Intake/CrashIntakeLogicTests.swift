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

    @Test func credentialsInAQueryStringAreRedactedByName() {
        #expect(BetaWebApplication.redactTarget("/api/v1/testers?token=bct_SECRET") == "/api/v1/testers?token=…")
        #expect(BetaWebApplication.redactTarget("/api/v1/testers?limit=5&access_token=S1&Api_Key=S2&client_secret=S3&password=S4&sig=S5")
                == "/api/v1/testers?limit=5&access_token=…&Api_Key=…&client_secret=…&password=…&sig=…")
        #expect(BetaWebApplication.redactTarget("/admin?session=S&next=/admin") == "/admin?session=…&next=/admin")
        #expect(BetaWebApplication.redactTarget("/api/v1/testers?bct_SECRET") == "/api/v1/testers?…", "a bare betactl token")
        #expect(BetaWebApplication.redactTarget("/api/v1/crashes?status=queued&cursor=abc&token") == "/api/v1/crashes?status=queued&cursor=abc&token",
                "no value, nothing to hide")
    }
}
