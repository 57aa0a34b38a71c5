import Foundation
import Testing
@testable import AppleFormats

/// Our XML and binary property-list writers: the XML is byte for byte what Foundation writes,
/// and both forms read back to the same value in our reader and in Foundation's.
@Suite struct PlistWritingTests {
    @Test func writesXMLByteForByteAsFoundationDoes() throws {
        let ours = try PlistReadingTests.sample.xmlBytes()
        let foundation = try FoundationPlistOracle.write(PlistReadingTests.sample, format: .xml)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func wrapsDataAndFormatsRealsAndDatesAsFoundationDoes() throws {
        var nested: PlistValue = .data((0 ..< 120).map { UInt8($0) })
        for _ in 0 ..< 12 { nested = .array([nested]) }
        let value: PlistValue = .array([
            .data((0 ..< 120).map { UInt8($0) }), .array([.data([1, 2, 3])]), nested,
            .real(.infinity), .real(-.infinity), .real(0), .real(-0.0), .real(123_456_789_012_345_680), .real(1e-7),
            .date(Date(timeIntervalSince1970: -1e10)), .date(Date(timeIntervalSinceReferenceDate: 0.999)),
            .string("\u{1}tab\tline\n]]>"), .dictionary(["": .string("")]),
        ])
        let ours = String(decoding: try value.xmlBytes(), as: UTF8.self)
        let foundation = String(decoding: try FoundationPlistOracle.write(value, format: .xml), as: UTF8.self)
        #expect(ours == foundation)
        #expect(ours.contains("<real>nan</real>") == false)
        #expect(String(decoding: try PlistValue.real(.nan).xmlBytes(), as: UTF8.self).contains("<real>nan</real>"))
    }

    @Test func xmlOutputReadsBackToTheSameValue() throws {
        let bytes = try PlistReadingTests.sample.xmlBytes()
        #expect(try PlistValue(parsing: bytes) == PlistReadingTests.sample)
        #expect(try FoundationPlistOracle.parse(bytes) == PlistReadingTests.sample)
    }

    @Test func binaryOutputReadsBackInOurReaderAndFoundations() throws {
        let bytes = try PlistReadingTests.sample.binaryBytes()
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try PlistValue(parsing: bytes) == PlistReadingTests.sample)
        #expect(try FoundationPlistOracle.parse(bytes) == PlistReadingTests.sample)
    }

    @Test func binaryOutputKeepsFractionalDatesAndUsesWideReferencesForManyObjects() throws {
        let many: PlistValue = .array((0 ..< 70_000).map { .integer(Int64($0)) } + [.date(Date(timeIntervalSinceReferenceDate: 12.375))])
        let bytes = try many.binaryBytes()
        // 70,001 objects need 4-byte object references (the trailer's byte 7).
        #expect(bytes[bytes.count - 25] == 4)
        #expect(try PlistValue(parsing: bytes) == many)
    }

    @Test(arguments: [1e300, -1e300, -62_167_219_201.0, 253_402_300_800.0, .infinity, .nan])
    func binaryWriterRefusesDatesItsReaderWouldRefuse(secondsSince1970: Double) {
        let value = PlistValue.array([.date(Date(timeIntervalSince1970: secondsSince1970))])
        let error = #expect(throws: PlistError.self) { try value.binaryBytes() }
        #expect(error?.description.contains("four-digit years (0000 to 9999)") == true)
    }

    @Test func binaryWriterStillWritesTheFirstAndLastFourDigitYearSeconds() throws {
        for seconds in [-62_167_219_200.0, 253_402_300_799.0] {
            let value = PlistValue.date(Date(timeIntervalSince1970: seconds))
            #expect(try PlistValue(parsing: value.binaryBytes()) == value)
        }
    }
}
