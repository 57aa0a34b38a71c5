#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A calendar date and time of day in UTC, converted to and from `Date` with `CivilDays`.
struct UTCDateComponents: Equatable, Sendable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// The moment these components name.
    var date: Date {
        let days = CivilDays.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}

extension UTCDateComponents {
    /// Seconds since 1970 from 0000-01-01T00:00:00Z up to (not including) 10000-01-01: the moments a
    /// four-digit year can name. `init(_:)` needs its date inside, and formats that write dates as
    /// text (XML property lists) can hold nothing else.
    static let fourDigitYears: Range<Double> =
        Double(CivilDays.days(year: 0, month: 1, day: 1) * 86400) ..< Double(CivilDays.days(year: 10000, month: 1, day: 1) * 86400)

    /// The components of `date`, rounded down to the whole second; nil when it lies outside
    /// `fourDigitYears` (a date read from a binary format can be any number of seconds, even one no
    /// `Int` holds). (In an extension, so that the memberwise initializer remains.)
    init?(_ date: Date) {
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
