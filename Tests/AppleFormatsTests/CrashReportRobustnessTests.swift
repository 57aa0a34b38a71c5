import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Truncations and bit flips of every crash report fixture: each parse gives a usable report or a
/// `CrashReportError`, never a trap or a hang.
@Suite struct CrashReportRobustnessTests {
    static let shared = ["acrp/XCDYouTubeKit-54.txt", "acrp/bruno.txt", "acrp/spaces.txt", "acrp/xcode16.txt",
                         "kscrash/Abort.txt", "kscrash/BadPointer.txt", "kscrash/NSException.txt", "kscrash/StackOverflow.txt",
                         "idb/app_default_set.crash", "idb/xctest-concated-json-crash.ips"]
    static let local = ["App-legacy.crash", "App-exception.crash", "App-109.ips", "App-309.ips"]

    /// Parses `bytes`; a report must be usable, an error a sentence that names a fix.
    @discardableResult
    static func parse(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Result<CrashReport, CrashReportError> {
        let result = Result { () throws(CrashReportError) in try CrashReport(data: Data(bytes)) }
        switch result {
        case .success(let report):
            let lineCount = report.text.map { $0.split(separator: "\n", omittingEmptySubsequences: false).count }
            let frames = report.threads.flatMap(\.frames) + (report.lastExceptionBacktrace ?? [])
            for frame in frames {
                // Whatever parsed must be usable: rendering edits the frame's own line of text.
                if let line = frame.textLine {
                    #expect(lineCount.map { line >= 0 && line < $0 } == true,
                            "frame line \(line) outside the report's \(lineCount ?? 0) lines", sourceLocation: sourceLocation)
                }
                if let image = report.image(for: frame) {
                    #expect(report.images.contains(image), sourceLocation: sourceLocation)
                }
            }
            if let crashed = report.crashingThread { #expect(report.threads.contains(crashed), sourceLocation: sourceLocation) }
        case .failure(let error):
            #expect(error.description.contains("; "), "not a sentence with a fix: \(error)", sourceLocation: sourceLocation)
        }
        return result
    }

    /// Truncations, byte flips and a cut from the middle: every one gives a usable report or a
    /// `CrashReportError` (the parser's typed error), and the empty prefix is always refused.
    static func sweep(_ original: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .success = parse(original, sourceLocation: sourceLocation) else {
            Issue.record("the undamaged report does not parse", sourceLocation: sourceLocation)
            return
        }
        let step = Swift.max(1, original.count / 120)
        var refused = 0
        for length in stride(from: 0, to: original.count, by: step) {
            if case .failure = parse(Array(original[..<length]), sourceLocation: sourceLocation) { refused += 1 }
        }
        #expect(parse([], sourceLocation: sourceLocation).failureValue != nil, "an empty file was read as a report", sourceLocation: sourceLocation)
        #expect(refused >= 1, sourceLocation: sourceLocation)
        var mutated = original
        for position in stride(from: 0, to: original.count, by: step) {
            mutated[position] ^= 0x5a
            parse(mutated, sourceLocation: sourceLocation)
            mutated[position] = original[position]
        }
        // Structural damage: delete a run of bytes from the middle.
        var cut = original
        cut.removeSubrange(original.count / 3 ..< original.count / 3 + Swift.min(200, original.count / 3))
        parse(cut, sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: shared)
    func sharedReportsGiveUsableReportsOrTypedErrorsWhenDamaged(_ path: String) throws {
        Self.sweep([UInt8](try SharedFixtures.data("crash/" + path)))
    }

    @Test(arguments: local)
    func generatedReportsGiveUsableReportsOrTypedErrorsWhenDamaged(_ path: String) throws {
        Self.sweep([UInt8](try LocalFixtures.data("symbols/crashes/" + path)))
    }

    @Test func hostileJSONGivesAUsableReportOrATypedError() throws {
        let cases = [
            "{\"bug_type\":\"309\"}\n{\"threads\":[{\"frames\":[{\"imageIndex\":99999999,\"imageOffset\":18446744073709551615}]}],\"usedImages\":[{\"base\":18446744073709551615,\"size\":18446744073709551615}]}",
            "{\"bug_type\":309}\n{\"threads\":\"nope\",\"usedImages\":[1,2,{\"uuid\":5}],\"faultingThread\":\"x\"}",
            "{\"a\":\"}\\\"{\"}\nThread 0 Crashed:\n0   X   0xffffffffffffffffff 0x0 + 1\n",
            String(repeating: "{", count: 10000),
        ]
        let outcomes = cases.map { Self.parse(Array($0.utf8)) }
        // Out-of-range numbers are dropped, not trusted; deep nesting is refused, not recursed into.
        #expect(try outcomes[0].get().threads.first?.frames.count == 1)
        guard case .failure = outcomes[3] else {
            Issue.record("10,000 nested braces were accepted as a crash report")
            return
        }
    }
}

extension Result {
    /// The error, or nil for a success.
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
