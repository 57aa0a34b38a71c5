import Testing
@testable import BetaServer

@Suite struct ByteRangesTests {
    @Test func singleClosedRange() {
        #expect(ByteRanges.evaluate("bytes=0-499", length: 1000) == .ranges([0...499]))
    }

    @Test func openEndedRangeRunsToTheEnd() {
        #expect(ByteRanges.evaluate("bytes=900-", length: 1000) == .ranges([900...999]))
    }

    @Test func suffixRangeMeansTheLastNBytes() {
        #expect(ByteRanges.evaluate("bytes=-100", length: 1000) == .ranges([900...999]))
        #expect(ByteRanges.evaluate("bytes=-5000", length: 1000) == .ranges([0...999]))
    }

    @Test func lastPositionBeyondTheEndIsClamped() {
        #expect(ByteRanges.evaluate("bytes=10-99999", length: 1000) == .ranges([10...999]))
    }

    @Test func multipleRangesAreSortedAndCoalesced() {
        #expect(ByteRanges.evaluate("bytes=500-599, 0-99,90-199", length: 1000) == .ranges([0...199, 500...599]))
        #expect(ByteRanges.evaluate("bytes=0-9,10-19", length: 1000) == .ranges([0...19]))
    }

    @Test func unsatisfiableRangesAreReported() {
        #expect(ByteRanges.evaluate("bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRanges.evaluate("bytes=-0", length: 1000) == .unsatisfiable)
        #expect(ByteRanges.evaluate("bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRanges.evaluate("bytes=2000-3000, 5000-", length: 1000) == .unsatisfiable)
    }

    @Test func unsatisfiableMembersOfASetAreDropped() {
        #expect(ByteRanges.evaluate("bytes=2000-3000, 5-9", length: 1000) == .ranges([5...9]))
    }

    @Test(arguments: ["items=0-1", "bytes=a-b", "bytes=5-1", "bytes=1", "bytes=", "bytes=--1", "bytes=+1-2"])
    func invalidHeadersAreIgnored(header: String) {
        #expect(ByteRanges.evaluate(header, length: 1000) == .whole)
    }

    @Test func tooManyRangesFallBackToTheWholeFile() {
        let header = "bytes=" + (0..<20).map { "\($0 * 10)-\($0 * 10 + 1)" }.joined(separator: ",")
        #expect(ByteRanges.evaluate(header, length: 1000, maxRanges: 16) == .whole)
    }
}
