import Foundation
import Testing
@testable import AppleFormats

@Suite struct UTCDateComponentsTests {
    @Test func iso8601PadsEveryFieldToItsWidth() throws {
        let early = try #require(UTCDateComponents(Date(timeIntervalSince1970: -62_104_060_800)))  // 0002-01-01
        #expect(early.iso8601 == "0002-01-01T00:00:00Z")
        let parts = UTCDateComponents(year: 987, month: 3, day: 4, hour: 5, minute: 6, second: 7)
        #expect(parts.iso8601 == "0987-03-04T05:06:07Z")
        #expect(try #require(UTCDateComponents(parts.date)) == parts)
    }

    @Test func componentsOfDatesOutsideFourDigitYearsAreNil() {
        #expect(UTCDateComponents(Date(timeIntervalSince1970: .nan)) == nil)
        #expect(UTCDateComponents(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(UTCDateComponents(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(UTCDateComponents(Date(timeIntervalSince1970: -62_167_219_201)) == nil)
    }

    @Test func isValidChecksEachFieldsRange() {
        let valid = UTCDateComponents(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 60)
        #expect(valid.isValid)
        for broken in [
            UTCDateComponents(year: 2024, month: 0, day: 1, hour: 0, minute: 0, second: 0),
            UTCDateComponents(year: 2024, month: 13, day: 1, hour: 0, minute: 0, second: 0),
            UTCDateComponents(year: 2024, month: 1, day: 32, hour: 0, minute: 0, second: 0),
            UTCDateComponents(year: 2024, month: 1, day: 1, hour: 24, minute: 0, second: 0),
            UTCDateComponents(year: 2024, month: 1, day: 1, hour: 0, minute: 60, second: 0),
            UTCDateComponents(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 61),
        ] {
            #expect(!broken.isValid, "\(broken)")
        }
    }

    @Test func parsingReportsWhichPartOfTheTextIsWrong() throws {
        let (parts, fraction) = try UTCDateComponents.parse(Array("2024-05-31T12:00:01.25Z".utf8), layout: .iso8601)
        #expect(parts == UTCDateComponents(year: 2024, month: 5, day: 31, hour: 12, minute: 0, second: 1))
        #expect(fraction == 0.25)
        func problem(_ text: String, _ layout: UTCDateComponents.TextLayout) -> UTCDateComponents.TextProblem? {
            #expect(throws: UTCDateComponents.TextProblem.self) { try UTCDateComponents.parse(Array(text.utf8), layout: layout) }
        }
        #expect(problem("2024-05-31T12:00", .iso8601) == .tooShort)
        #expect(problem("2024-05-31T12:00:0xZ", .iso8601) == .notADigit)
        #expect(problem("2024/05/31T12:00:00Z", .iso8601) == .misplacedSeparator)
        #expect(problem("2024-05-31T12:00:00", .iso8601) == .notUTC)
        #expect(problem("2024-05-31T12:00:00+0100", .iso8601) == .notUTC)
        #expect(problem("2024-05-32T12:00:00Z", .iso8601) == .outOfRange)
        #expect(problem("202405311200", .generalizedTime) == .notUTC)
        #expect(try UTCDateComponents.parse(Array("240531120000Z".utf8), layout: .utcTime).components.year == 2024)
        #expect(try UTCDateComponents.parse(Array("990531120000Z".utf8), layout: .utcTime).components.year == 1999)
    }
}
