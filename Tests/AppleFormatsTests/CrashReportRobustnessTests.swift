import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Truncations and bit flips of every crash report fixture: each parse gives a report or a
/// `CrashReportError`, never a trap or a hang.
@Suite struct CrashReportRobustnessTests {
    static let shared = ["acrp/XCDYouTubeKit-54.txt", "acrp/bruno.txt", "acrp/spaces.txt", "acrp/xcode16.txt",
                         "kscrash/Abort.txt", "kscrash/BadPointer.txt", "kscrash/NSException.txt", "kscrash/StackOverflow.txt",
                         "idb/app_default_set.crash", "idb/xctest-concated-json-crash.ips"]
    static let local = ["App-legacy.crash", "App-exception.crash", "App-109.ips", "App-309.ips"]

    static func sweep(_ original: [UInt8]) {
        let step = Swift.max(1, original.count / 120)
        for length in stride(from: 0, to: original.count, by: step) {
            _ = try? CrashReport(data: Data(original[..<length]))
        }
        var mutated = original
        for position in stride(from: 0, to: original.count, by: step) {
            mutated[position] ^= 0x5a
            if let report = try? CrashReport(data: Data(mutated)) {
                // Whatever parsed must be usable.
                for thread in report.threads { for frame in thread.frames { _ = report.image(for: frame) } }
            }
            mutated[position] = original[position]
        }
        // Structural damage: delete a run of bytes from the middle.
        var cut = original
        cut.removeSubrange(original.count / 3 ..< original.count / 3 + Swift.min(200, original.count / 3))
        _ = try? CrashReport(data: Data(cut))
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: shared)
    func sharedReportsSurviveTruncationsAndBitFlips(_ path: String) throws {
        Self.sweep([UInt8](try SharedFixtures.data("crash/" + path)))
    }

    @Test(arguments: local)
    func generatedReportsSurviveTruncationsAndBitFlips(_ path: String) throws {
        Self.sweep([UInt8](try LocalFixtures.data("symbols/crashes/" + path)))
    }

    @Test func hostileJSONDoesNotBreakTheParser() {
        let cases = [
            "{\"bug_type\":\"309\"}\n{\"threads\":[{\"frames\":[{\"imageIndex\":99999999,\"imageOffset\":18446744073709551615}]}],\"usedImages\":[{\"base\":18446744073709551615,\"size\":18446744073709551615}]}",
            "{\"bug_type\":309}\n{\"threads\":\"nope\",\"usedImages\":[1,2,{\"uuid\":5}],\"faultingThread\":\"x\"}",
            "{\"a\":\"}\\\"{\"}\nThread 0 Crashed:\n0   X   0xffffffffffffffffff 0x0 + 1\n",
            String(repeating: "{", count: 10000),
        ]
        for text in cases { _ = try? CrashReport(text: text) }
        let overflow = try? CrashReport(text: cases[0])
        #expect(overflow?.threads.first?.frames.count == 1)
    }
}
