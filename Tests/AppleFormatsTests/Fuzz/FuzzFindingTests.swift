import Foundation
import Testing
import TestSupport
@testable import AppleFormats

/// Inputs that libFuzzer found to trap, hang or exhaust memory in a parser (Tests/Fuzz), minimized
/// and kept under `Tests/Fixtures/fuzz/<target>/`. Each must now be refused with an error or give a
/// partial result; before its fix each of these tests stopped the test process.
@Suite struct FuzzFindingTests {
    static func input(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try LocalFixtures.data("fuzz/\(target)/\(name)"))
    }

    @Test func binaryPlistDateBeyondYear9999IsRefused() throws {
        // A date of ~1e300 seconds was read, and writing it as XML converted it to Int and trapped.
        let bytes = try Self.input("plist", "date-beyond-year-9999.bplist")
        let error = #expect(throws: PlistError.self) { try PlistValue(parsing: bytes) }
        #expect(error?.description.contains("outside the years 0000 to 9999") == true)
    }

    @Test(arguments: [1e300, -1e300, -62_167_219_201.0, 253_402_300_800.0])
    func xmlPlistWriterRefusesDatesWithoutAFourDigitYear(secondsSince1970: Double) {
        let value = PlistValue.dictionary(["when": .date(Date(timeIntervalSince1970: secondsSince1970))])
        let error = #expect(throws: PlistError.self) { try value.xmlBytes() }
        #expect(error?.description.contains("four-digit years") == true)
    }

    @Test func xmlPlistWriterStillWritesTheFirstAndLastFourDigitYearSeconds() throws {
        for (seconds, text) in [(-62_167_219_200.0, "0000-01-01T00:00:00Z"), (253_402_300_799.0, "9999-12-31T23:59:59Z")] {
            let xml = try PlistValue.date(Date(timeIntervalSince1970: seconds)).xmlBytes()
            #expect(String(decoding: xml, as: UTF8.self).contains("<date>\(text)</date>"))
            #expect(try PlistValue(parsing: xml) == .date(Date(timeIntervalSince1970: seconds)))
        }
    }
}

/// Findings of the crash-intake targets (`ips-json`, `kscrash-batch`).
@Suite struct CrashIntakeFuzzFindingTests {
    /// Bodies the two .ips readers read differently (the fuzzer's differential check): a number
    /// written with a leading zero, which JSONDecoder parses but cannot read as a number; a
    /// repeated key, whose first value JSONDecoder reads; a run of number characters that is no
    /// number ("43727-5760") (the body also has a member name that is not UTF-8); a `\u` escape
    /// whose four bytes run into the string's closing quote, which breaks JSONDecoder's document;
    /// a trailing comma before `}`, which JSONDecoder takes.
    @Test func theIPSBodyReadersAgreeOnTheFoundBody() throws {
        for name in ["leading-zero.json", "repeated-key.json", "number-run.json", "unicode-escape-cut-short.json", "trailing-comma.json"] {
            let bytes = try FuzzFindingTests.input("ips-json", name)
            let decoded = (try? JSONDecoder().decode(IPSBody.self, from: Data(bytes))).map { CrashReport(ips: $0, header: nil) }
            let parsed = (try? IPSBody.read(bytes)).flatMap { $0 }.map { CrashReport(ips: $0, header: nil) }
            // Both read all but the cut-short escape (which is not JSON to JSONDecoder).
            #expect((parsed != nil) == (name != "unicode-escape-cut-short.json"), "\(name)")
            #expect(parsed == decoded, "\(name)")
        }
    }

    /// `{` closed by `]` was taken for a whole report.
    @Test func mismatchedBracketsAreNotAReport() throws {
        let bytes = try FuzzFindingTests.input("kscrash-batch", "mismatched-brackets.json")
        #expect(throws: KSCrashBatchError.self) { try KSCrashBatch.split(bytes) }
        #expect(throws: KSCrashBatchError.self) { try KSCrashBatch.split(Array(#"[{"a": [1}]]"#.utf8)) }
    }
}
