import Foundation
import Testing
import TestSupport
@testable import BetaServer

/// Inputs that libFuzzer found to break a property of the HTTP parsers (Tests/Fuzz), minimized and
/// kept under `Tests/Fixtures/fuzz/<target>/`.
@Suite struct HTTPFuzzFindingTests {
    /// The error from feeding `bytes` in pieces of `step` bytes (all at once when `step` covers them), or nil.
    static func headError(_ bytes: [UInt8], step: Int) -> HTTPParseError? {
        var parser = RequestHeadParser()
        var end = 0
        repeat {
            end = min(bytes.count, end + step)
            do {
                if case .complete = try bytes[0 ..< end].withUnsafeBytes({ try parser.parse($0) }) { return nil }
            } catch {
                return error as? HTTPParseError
            }
        } while end < bytes.count
        return nil
    }

    @Test(arguments: [Int.max, 1, 7, 96, 4096])
    func overlongRequestLineIsReportedFirstHoweverItArrives(step: Int) throws {
        // The request line passes 8192 bytes and a bare CR follows. All at once the parser scanned on
        // to the CR (400); fed in pieces it stopped at the length (414): the answer depended on
        // how TCP split the bytes.
        let bytes = Array(try LocalFixtures.data("fuzz/http-head/long-request-line-then-bare-cr.http"))
        #expect(Self.headError(bytes, step: step) == .requestLineTooLong(limit: 8192))
    }

    @Test(arguments: [Int.max, 1, 1000, 65536])
    func oversizeHeaderSectionIsReportedFirstHoweverItArrives(step: Int) {
        // The same ordering for the 64 KiB header section: a bare LF after the limit is not reached.
        var text = "GET / HTTP/1.1\r\nHost: h\r\n"
        for index in 0 ..< 17 { text += "X-Big-\(index): " + String(repeating: "v", count: 4000) + "\r\n" }
        text += "X-Late: v\nHost: h\r\n\r\n"
        #expect(text.utf8.count > 65536 + 100)
        #expect(Self.headError(Array(text.utf8), step: step) == .headerSectionTooLarge(limit: 65536))
    }
}
