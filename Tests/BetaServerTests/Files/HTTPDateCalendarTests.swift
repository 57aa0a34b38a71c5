#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import BetaServer

/// HTTPDate works out the calendar itself; it must agree with the C library's gmtime and timegm
/// on days across four centuries, leap years and century rules included.
@Suite struct HTTPDateCalendarTests {
    static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// What gmtime_r says, written as an IMF-fixdate.
    static func reference(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    @Test func daysFrom1970To2400FormatAsGmtimeAndParseBack() {
        var seconds = 0
        let end = 13_569_465_600 // 2400-01-01
        var mismatches: [Int] = []
        while seconds < end {
            let text = HTTPDate.format(seconds)
            if text != Self.reference(seconds) || HTTPDate.parse(text) != seconds { mismatches.append(seconds) }
            seconds += 5 * 86_400 + 3_671 // every weekday and day of the month, a new time of day each step
        }
        #expect(mismatches.isEmpty, "first mismatch at \(mismatches.first ?? 0)")
    }

    @Test func leapDaysCenturiesAndTheCommonLogFormAreRight() {
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(4_107_542_399) == "Sun, 28 Feb 2100 23:59:59 GMT")
        #expect(HTTPDate.format(4_107_542_400) == "Mon, 01 Mar 2100 00:00:00 GMT", "2100 is not a leap year")
        #expect(HTTPDate.commonLog(971_186_136) == "10/Oct/2000:13:55:36 +0000")
        #expect(HTTPDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test func aDayPastTheMonthsEndCarriesOverAsTimegmDoes() {
        var parts = tm()
        parts.tm_year = 2023 - 1900
        parts.tm_mon = 1
        parts.tm_mday = 31
        parts.tm_hour = 12
        #expect(HTTPDate.parse("Fri, 31 Feb 2023 12:00:00 GMT") == Int(timegm(&parts)))
        #expect(HTTPDate.parse("Fri, 31 Feb 2023 12:00:00 GMT") == HTTPDate.parse("Fri, 03 Mar 2023 12:00:00 GMT"))
    }
}
