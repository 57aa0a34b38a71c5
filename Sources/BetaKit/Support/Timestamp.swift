#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// UTC timestamps as stored in the database: `YYYY-MM-DDTHH:MM:SSZ`.
///
/// The fixed-width format sorts lexicographically in time order, which lets SQL
/// compare timestamps as text.
public enum Timestamp {
    /// Formats `date` (to the second, UTC).
    public static func string(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let day = CalendarDate(daysSince1970: days)
        return "\(day)T\(CalendarDate.pad(secondOfDay / 3600, 2)):\(CalendarDate.pad(secondOfDay / 60 % 60, 2)):\(CalendarDate.pad(secondOfDay % 60, 2))Z"
    }

    /// Parses the stored format, or a bare `YYYY-MM-DD` as midnight UTC.
    public static func date(_ string: String) -> Date? {
        if string.count == 10 { return CalendarDate(iso: string)?.startDate }
        guard string.count == 20, string.hasSuffix("Z") else { return nil }
        let chars = Array(string.utf8)
        guard chars[10] == UInt8(ascii: "T"), chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
              let day = CalendarDate(iso: String(string.prefix(10))),
              let h = Int(String(decoding: chars[11 ..< 13], as: UTF8.self)),
              let m = Int(String(decoding: chars[14 ..< 16], as: UTF8.self)),
              let s = Int(String(decoding: chars[17 ..< 19], as: UTF8.self)),
              (0 ..< 24).contains(h), (0 ..< 60).contains(m), (0 ..< 61).contains(s) else { return nil }
        return Date(timeIntervalSince1970: Double(day.daysSince1970 * 86_400 + h * 3600 + m * 60 + s))
    }

    /// The stored form of midnight UTC starting `day`, for range comparisons in SQL.
    public static func string(startOf day: CalendarDate) -> String { "\(day)T00:00:00Z" }
}
