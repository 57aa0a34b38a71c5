#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A day in the proleptic Gregorian calendar, in UTC.
///
/// betactl does its own date arithmetic on days since 1970 rather than through
/// `Calendar`, which would load ICU and slow down every command's start.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, such as 2026.
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The day of the month, 1 through 31.
    public let day: Int

    /// Creates a date if the components name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1 ... 9999).contains(year), (1 ... 12).contains(month),
              (1 ... Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; anything else is nil.
    public init?(iso string: String) {
        let parts = string.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The UTC day containing `date`.
    public init(_ date: Date) {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        self.init(daysSince1970: days)
    }

    /// The day `days` after 1970-01-01 (negative for earlier days).
    public init(daysSince1970 days: Int) {
        (year, month, day) = CivilDays.date(days: days)
    }

    /// Days since 1970-01-01.
    public var daysSince1970: Int { CivilDays.days(year: year, month: month, day: day) }

    /// Midnight UTC at the start of this day.
    public var startDate: Date { Date(timeIntervalSince1970: Double(daysSince1970) * 86_400) }

    /// This date moved by `days` days.
    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSince1970: daysSince1970 + days) }

    /// The same month and day in `year`, with February 29 becoming February 28 in common years.
    public func anniversary(in year: Int) -> CalendarDate {
        let clampedDay = Swift.min(day, Self.daysIn(month: month, year: year))
        return CalendarDate(year: year, month: month, day: clampedDay) ?? self
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
    }

    /// Orders dates chronologically.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
