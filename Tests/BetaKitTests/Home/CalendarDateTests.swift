import Foundation
import Testing
@testable import BetaKit

@Suite struct CalendarDateTests {
    @Test func convertsBetweenDaysSince1970AndCivilDates() throws {
        #expect(CalendarDate(daysSince1970: 0).description == "1970-01-01")
        #expect(CalendarDate(daysSince1970: -1).description == "1969-12-31")
        #expect(CalendarDate(daysSince1970: 11016).description == "2000-02-29")
        let day = try #require(CalendarDate(iso: "2026-11-21"))
        #expect(CalendarDate(daysSince1970: day.daysSince1970) == day)
        // Every day over several leap cycles survives the round trip.
        for days in stride(from: -800, to: 40_000, by: 1) {
            let date = CalendarDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
        }
    }

    @Test func parsesOnlyRealYYYYMMDDDates() {
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2023-02-29") == nil)
        #expect(CalendarDate(iso: "2027-3-1") == nil)
        #expect(CalendarDate(iso: "2027-13-01") == nil)
        #expect(CalendarDate(iso: "２０２７-03-01") == nil)
        #expect(CalendarDate(iso: "") == nil)
    }

    @Test func timestampsRoundTripAndSortAsText() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_123)
        let text = Timestamp.string(date)
        #expect(text == "2026-11-18T11:08:43Z")  // date -u -d @1795000123
        #expect(Timestamp.date(text) == date)
        #expect(Timestamp.string(at("2026-03-01")) < Timestamp.string(at("2026-03-01T00:00:01Z")))
        #expect(Timestamp.date("2026-11-18 09:08:43") == nil)
        #expect(Timestamp.date("2026-11-18T25:08:43Z") == nil)
    }

    @Test func timestampsMatchDayAndSecondArithmeticAcrossFourDigitYears() {
        // The layout worked out independently: the UTC day from CalendarDate, then the second of that day.
        func expected(_ seconds: Int) -> String {
            let days = Int((Double(seconds) / 86_400).rounded(.down))
            let inDay = seconds - days * 86_400
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(CalendarDate(daysSince1970: days))T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))Z"
        }
        let first = -62_167_219_200  // 0000-01-01T00:00:00Z
        let last = 253_402_300_799  // 9999-12-31T23:59:59Z
        for seconds in [first, first + 86_399, -86_401, -1, 0, 1, 951_782_400, 1_795_000_123, last] {
            #expect(Timestamp.string(Date(timeIntervalSince1970: Double(seconds))) == expected(seconds))
        }
        #expect(Timestamp.string(Date(timeIntervalSince1970: Double(first))) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: Double(last))) == "9999-12-31T23:59:59Z")
        // Fractions round down, also before 1970.
        #expect(Timestamp.string(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1_795_000_123.999)) == "2026-11-18T11:08:43Z")
    }

    @Test func timestampsOutsideFourDigitYearsTakeTheNearestEndInsteadOfTrapping() {
        #expect(Timestamp.string(Date(timeIntervalSince1970: 253_402_300_800)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: -62_167_219_201)) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: -.infinity)) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: .nan)) == "0000-01-01T00:00:00Z")
    }

    @Test func membershipYearRunsFromTheLastAnniversaryToTheNext() throws {
        let renewal = try #require(CalendarDate(iso: "2027-03-01"))
        let year = MembershipYear(containing: try #require(CalendarDate(iso: "2026-11-21")), anniversary: renewal, isInferred: false)
        #expect(year.start.description == "2026-03-01")
        #expect(year.renews.description == "2027-03-01")
        let onTheDay = MembershipYear(containing: try #require(CalendarDate(iso: "2027-03-01")), anniversary: renewal, isInferred: false)
        #expect(onTheDay.start.description == "2027-03-01")
        #expect(onTheDay.renews.description == "2028-03-01")
    }

    @Test func aLeapDayRenewalFallsOnFebruary28InCommonYears() throws {
        let renewal = try #require(CalendarDate(iso: "2024-02-29"))
        let year = MembershipYear(containing: try #require(CalendarDate(iso: "2026-01-10")), anniversary: renewal, isInferred: false)
        #expect(year.start.description == "2025-02-28")
        #expect(year.renews.description == "2026-02-28")
    }
}
