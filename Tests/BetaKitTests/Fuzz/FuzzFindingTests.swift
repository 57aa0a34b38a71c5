import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

/// Regression tests for what fuzzing BetaKit found (Tests/Fixtures/fuzz, see Tests/Fuzz/README.md).
@Suite struct BetaKitFuzzFindingTests {
    /// enrollment-intake, finding 1: a forged reply whose damaged plist made the parser quote a NUL
    /// byte in its reason. The result was stored with the reason cut at the NUL (SQLite text ends
    /// there), so the result page would have shown less than the server logged. Reasons are now
    /// cleaned (control characters replaced, length capped) before they are kept or shown.
    @Test func aReasonQuotingControlCharactersIsKeptAsItIsShown() throws {
        let input = Array(try LocalFixtures.data("fuzz/enrollment-intake/detail-with-a-nul.bin"))
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        let enrollment = DeviceEnrollment(home: f.home)
        let result = try enrollment.receive(Array(input.dropFirst()), testerID: ann.id, now: at("2026-11-10"))
        #expect(result.outcome == .unreadable)
        let detail = try #require(result.detail)
        #expect(!detail.unicodeScalars.contains { $0.value < 0x20 }, "\(detail)")
        #expect(detail.unicodeScalars.count <= 300)
        #expect(try enrollment.result(reference: result.reference, testerID: ann.id) == result)
        #expect(try f.roster.devices().isEmpty)
    }

    @Test func reasonsAreCleanedOfControlCharactersAndCapped() {
        #expect(DeviceEnrollment.cleaned("a\u{0}b\nc\u{7F}d é") == "a?b?c?d é")
        #expect(DeviceEnrollment.cleaned(String(repeating: "x", count: 1000)).count == 300)
    }
}
