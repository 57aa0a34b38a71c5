#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A calendar date and time of day in UTC, converted to and from `Date` with days-from-civil
/// arithmetic (proleptic Gregorian calendar), so that no Calendar, locale or time zone is involved.
struct UTCDateComponents: Equatable, Sendable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The components of `date`, rounded down to the whole second.
    init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86400
        var inDay = seconds % 86400
        if inDay < 0 {
            inDay += 86400
            days -= 1
        }
        hour = inDay / 3600
        minute = inDay % 3600 / 60
        second = inDay % 60
        // Civil-from-days: eras of 400 years start on 0000-03-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The moment these components name.
    var date: Date {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}
