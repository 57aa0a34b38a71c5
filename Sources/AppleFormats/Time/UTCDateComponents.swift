#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A calendar date and time of day in UTC, converted to and from `Date` with `CivilDays`.
///
/// Shared by every format that writes or reads dates as text (XML property lists, ASN.1 times,
/// BetaKit's database timestamps), so that they agree on the calendar and the layout.
public struct UTCDateComponents: Equatable, Sendable {
    /// The year, such as 2026 (0 through 9999 when made from a `Date`).
    public var year: Int
    /// The month, 1 through 12.
    public var month: Int
    /// The day of the month, 1 through 31.
    public var day: Int
    /// The hour, 0 through 23.
    public var hour: Int
    /// The minute, 0 through 59.
    public var minute: Int
    /// The second, 0 through 60 (60 for a leap second).
    public var second: Int

    /// Creates components from their values as given; `isValid` tells whether they are in range.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The moment these components name.
    public var date: Date {
        let days = CivilDays.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }

    /// Whether each field lies in its range (months 1-12, days 1-31, hours 0-23, minutes 0-59,
    /// seconds 0-60), the check every textual time format makes before trusting the numbers.
    /// The day is not checked against the month's length, as Apple's readers do not.
    public var isValid: Bool {
        (1 ... 12).contains(month) && (1 ... 31).contains(day) && (0 ..< 24).contains(hour) && (0 ..< 60).contains(minute)
            && (0 ..< 61).contains(second)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601 in UTC, four-digit year), as XML property lists and
    /// BetaKit's database store dates. Fixed width for years 0 to 9999, so it sorts in time order.
    public var iso8601: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))Z"
    }
}

extension UTCDateComponents {
    /// Seconds since 1970 from 0000-01-01T00:00:00Z up to (not including) 10000-01-01: the moments a
    /// four-digit year can name. `init(_:)` needs its date inside, and formats that write dates as
    /// text (XML property lists) can hold nothing else.
    static let fourDigitYears: Range<Double> =
        Double(CivilDays.days(year: 0, month: 1, day: 1) * 86400) ..< Double(CivilDays.days(year: 10000, month: 1, day: 1) * 86400)

    /// The components of `date`, rounded down to the whole second; nil when it lies outside years
    /// 0000 to 9999 or is not a number (a date read from a binary format can be any number of
    /// seconds, even one no `Int` holds).
    public init?(_ date: Date) {
        guard Self.fourDigitYears.contains(date.timeIntervalSince1970) else { return nil }
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86400
        var inDay = seconds % 86400
        if inDay < 0 {
            inDay += 86400
            days -= 1
        }
        let (year, month, day) = CivilDays.date(days: days)
        self.init(year: year, month: month, day: day, hour: inDay / 3600, minute: inDay % 3600 / 60, second: inDay % 60)
    }
}
