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
    /// The components of `date`, rounded down to the whole second. (In an extension, so that the
    /// memberwise initializer remains.)
    init(_ date: Date) {
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
