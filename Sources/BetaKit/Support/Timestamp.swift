#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// UTC timestamps as stored in the database: `YYYY-MM-DDTHH:MM:SSZ`.
///
/// The fixed-width format sorts lexicographically in time order, which lets SQL
/// compare timestamps as text.
public enum Timestamp {
    /// Formats `date` (to the second, UTC). A date outside years 0000-9999, or not a number, is
    /// written as the nearest end of that range, which keeps the fixed width and the sort order.
    public static func string(_ date: Date) -> String {
        if let parts = UTCDateComponents(date) { return parts.iso8601 }
        return date.timeIntervalSince1970 > 0 ? "9999-12-31T23:59:59Z" : "0000-01-01T00:00:00Z"
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
