/// IMF-fixdate (RFC 9110 §5.6.7) formatting and parsing, and the access log date.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    public static func format(_ seconds: Int) -> String {
        let parts = UTCParts(seconds)
        return "\(days[parts.weekday]), \(two(parts.day)) \(months[parts.month - 1]) \(parts.year) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    /// `10/Oct/2000:13:55:36 +0000`
    public static func commonLog(_ seconds: Int) -> String {
        let parts = UTCParts(seconds)
        return "\(two(parts.day))/\(months[parts.month - 1])/\(parts.year):"
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }

    /// Parses an IMF-fixdate; other (obsolete) formats return nil and are treated as absent.
    public static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == ASCII.space,
              String(decoding: bytes[26...], as: UTF8.self) == "GMT" else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int32(byte - 0x30)
            }
            return value
        }
        let monthName = String(decoding: bytes[8..<11], as: UTF8.self)
        guard let month = months.firstIndex(of: monthName), let day = number(5..<7), let year = number(12..<16),
              let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
              bytes[16] == ASCII.colon || bytes[19] == ASCII.colon,
              day >= 1, day <= 31, hour < 24, minute < 60, second < 61, year >= 1970 else { return nil }
        // As timegm: a day past the month's end carries into the next month.
        let days = UTCParts.days(year: Int(year), month: month + 1, day: 1) + Int(day) - 1
        return days * 86400 + Int(hour) * 3600 + Int(minute) * 60 + Int(second)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A time in seconds since 1970 as a UTC calendar date and time of day (proleptic Gregorian,
/// Howard Hinnant's civil-from-days algorithm), so that no C time call is needed.
struct UTCParts {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 for Sunday.
    var weekday: Int

    init(_ seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400)
        let rest = seconds - days * 86400
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
        weekday = ((days + 4) % 7 + 7) % 7 // 1970-01-01 was a Thursday
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (month 1 ... 12).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
