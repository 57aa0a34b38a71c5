import AppleFormats
import Foundation
import Testing
import TestSupport

@Suite struct KSCrashBatchTests {
    static func split(_ text: String) throws(KSCrashBatchError) -> [String] {
        let bytes = Array(text.utf8)
        return try KSCrashBatch.split(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func anArrayGivesEachReportsExactBytes() throws {
        #expect(try Self.split(#" [ {"a": "}]\"{"}, {"b": [1, {"c": 2}]} ]"#) == [#"{"a": "}]\"{"}"#, #"{"b": [1, {"c": 2}]}"#])
        #expect(try Self.split("[]") == [])
        #expect(try Self.split("\u{FEFF}[{}]\n") == ["{}"])
    }

    @Test func aSingleObjectIsOneReport() throws {
        #expect(try Self.split(#"{"report": {}}"#) == [#"{"report": {}}"#])
    }

    @Test func malformedInputIsRefusedSayingWhere() {
        #expect(throws: KSCrashBatchError.empty) { try Self.split("  ") }
        #expect(throws: KSCrashBatchError.notAnArray(offset: 0)) { try Self.split("\"x\"") }
        #expect(throws: KSCrashBatchError.notAnObject(index: 1, offset: 5)) { try Self.split("[{}, 1]") }
        #expect(throws: KSCrashBatchError.truncated) { try Self.split(#"[{"a": "b"#) }
        #expect(throws: KSCrashBatchError.truncated) { try Self.split("[{}") }
        #expect(throws: KSCrashBatchError.expectedCommaOrBracket(offset: 4)) { try Self.split("[{} {}]") }
        #expect(throws: KSCrashBatchError.trailingData(offset: 5)) { try Self.split("[{}] x") }
        #expect(throws: KSCrashBatchError.tooManyReports(limit: 2)) { try KSCrashBatch.split(Array("[{},{},{}]".utf8), maxReports: 2) }
    }

    /// The real reports of KSCrash's example set, posted together as the standard sink does.
    @Test(.enabled(if: SharedFixtures.available))
    func theKSCrashExamplesSplitIntoReportsThatParse() throws {
        let names = ["Abort", "BadPointer", "NSException", "StackOverflow"]
        let reports = try names.map { try SharedFixtures.data("crash/kscrash/\($0).json") }
        let body = Array(("[" + reports.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",\n") + "]").utf8)
        let ranges = try KSCrashBatch.split(body)
        #expect(ranges.count == 4)
        for (range, original) in zip(ranges, reports) {
            let bytes = body[range]
            #expect(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    == String(decoding: original, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(try !KSCrashReport(bytes: Array(bytes)).threads.isEmpty)
        }
    }

    /// Every truncation and damaged variant gives ranges inside the input or a typed error.
    @Test func damagedBatchesGiveRangesOrATypedError() throws {
        let original = Array(#"[{"report": {"id": "a\"b"}, "x": [1, 2, {"y": null}]}, {"z": "]"}]"#.utf8)
        for length in 0 ..< original.count {
            // Every cut-short batch is incomplete: never a shorter list of reports.
            #expect(throws: KSCrashBatchError.self) { try KSCrashBatch.split(Array(original[..<length])) }
        }
        for bytes in damagedVariants(of: original, count: 200).map(\.bytes) {
            do {
                let ranges = try KSCrashBatch.split(bytes)
                for range in ranges {
                    #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count)
                    #expect(bytes[range.lowerBound] == UInt8(ascii: "{"))
                }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
