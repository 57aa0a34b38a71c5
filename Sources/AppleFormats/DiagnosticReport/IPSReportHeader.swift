#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The first line of an `.ips` file: a JSON object naming the report's `bug_type`, the process
/// and the OS. Every kind of diagnostic report (crash, jetsam, resource, stackshot, panic, …)
/// starts with it; the body that follows is JSON or text depending on the kind.
public struct IPSReportHeader: Sendable, Equatable {
    /// `bug_type` (written as a string or a number), such as "309" or "298".
    public var bugType: String
    /// `name`: the process or report name.
    public var name: String?
    /// `app_name`.
    public var appName: String?
    /// `app_version`.
    public var appVersion: String?
    /// `build_version`.
    public var buildVersion: String?
    /// `bundleID`.
    public var bundleID: String?
    /// `os_version`, such as "iPhone OS 17.4.1 (21E236)".
    public var osVersion: String?
    /// `incident_id`.
    public var incidentID: String?
    /// `timestamp`, as written.
    public var timestamp: String?

    /// The header and where the body starts, or nil when `bytes` do not start (after a byte
    /// order mark and whitespace) with one JSON object that has a `bug_type`.
    public static func split(_ bytes: [UInt8]) -> (header: IPSReportHeader, bodyStart: Int)? {
        guard let (start, end) = firstJSONObject(in: bytes) else { return nil }
        guard (try? JSONNesting.check(bytes[start ..< end])) != nil,
              let raw = try? JSONDecoder().decode(Raw.self, from: Data(bytes[start ..< end])), let bugType = raw.bugType else { return nil }
        let header = IPSReportHeader(bugType: bugType, name: raw.name, appName: raw.appName, appVersion: raw.appVersion,
                                     buildVersion: raw.buildVersion, bundleID: raw.bundleID, osVersion: raw.osVersion,
                                     incidentID: raw.incidentID, timestamp: raw.timestamp)
        var body = end
        while body < bytes.count, bytes[body].isXMLWhitespace { body += 1 }
        return (header, body)
    }

    /// The range of the JSON object the bytes start with (after a byte order mark and whitespace):
    /// braces are matched outside strings, so nothing is decoded yet.
    public static func firstJSONObject(in bytes: [UInt8]) -> (start: Int, end: Int)? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start].isXMLWhitespace { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false, escaped = false
        for index in start ..< bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return (start, index + 1) }
                if depth < 0 { return nil }
            default: break
            }
        }
        return nil
    }

    /// A string, or a number where a string was expected (`"bug_type": 309`).
    struct StringOrNumber: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) { text = string } else { text = String(try container.decode(Int64.self)) }
        }
    }

    struct Raw: Decodable {
        var bugTypeValue: StringOrNumber?
        var name, appName, appVersion, buildVersion, bundleID, osVersion, incidentID, timestamp: String?
        var bugType: String? { bugTypeValue?.text }

        enum CodingKeys: String, CodingKey {
            case bugTypeValue = "bug_type", name, appName = "app_name", appVersion = "app_version", buildVersion = "build_version"
            case bundleID, osVersion = "os_version", incidentID = "incident_id", timestamp
        }

        init(from decoder: any Decoder) throws {
            // Header fields of an unexpected type read as absent: the header is only a label.
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
            bugTypeValue = try? container.decodeIfPresent(StringOrNumber.self, forKey: .bugTypeValue)
            name = text(.name)
            appName = text(.appName)
            appVersion = text(.appVersion)
            buildVersion = text(.buildVersion)
            bundleID = text(.bundleID)
            osVersion = text(.osVersion)
            incidentID = text(.incidentID)
            timestamp = text(.timestamp)
        }
    }
}
