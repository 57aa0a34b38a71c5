/// The identity a crash report carries inside itself: the `Incident Identifier` of a text report
/// (also inside a HockeySDK log or its xml document), the `incident_id` of an `.ips` header (or
/// `incident` of a header-less body), KSCrash's `report.id`. The same crash sent twice, by two
/// clients that frame it differently (a trailing CRLF, another wrapper), has one identity.
///
/// Read with a scan that decodes nothing and keeps no stack, so it costs a pass over the bytes
/// at most and is safe on any input.
public enum CrashReportIdentity {
    /// Longest identity kept: incident identifiers are UUIDs; a longer value is not one.
    public static let maxLength = 128
    /// How far into a text report the `Incident Identifier:` line is looked for.
    static let textWindow = 64 * 1024

    /// The report's identity: its class (`crash`, or `ips-` and the `bug_type` of another kind of
    /// `.ips` report) and its identifier upper-cased, such as `crash:4B1F2E3D-…`; nil when it
    /// names none (or names something that
    /// is not an identifier: empty, too long, or with characters outside letters, digits, `-`,
    /// `_`, `.` and `:`).
    public static func of(_ bytes: [UInt8]) -> String? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, isWhitespace(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "{") { return json(bytes, from: start) }
        return text(bytes, from: start)
    }

    /// A line starting (after spaces) with `Incident Identifier:` in the first 64 KiB.
    static func text(_ bytes: [UInt8], from start: Int) -> String? {
        let marker = Array("Incident Identifier:".utf8)
        let end = min(bytes.count, start + textWindow)
        var lineStart = start
        while lineStart < end {
            var index = lineStart
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            var lineEnd = index
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            if lineEnd - index >= marker.count, bytes[index ..< index + marker.count].elementsEqual(marker) {
                return normalized(bytes[(index + marker.count) ..< lineEnd]).map { "\(kind(bugType: nil)):\($0)" }
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// In the first JSON object: a top-level `incident_id` or `incident`, or `report` → `id`,
    /// in the class its top-level `bug_type` names.
    static func json(_ bytes: [UInt8], from start: Int) -> String? {
        var depth = 0
        var reportDepth = -1
        var incident: String?
        var bugType: String?
        var index = start
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: index + 1) else { break scan }
                let key = bytes[(index + 1) ..< end]
                index = skipWhitespace(bytes, from: end + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { continue }
                index = skipWhitespace(bytes, from: index + 1)
                guard index < bytes.count else { break scan }
                let isIncident = (depth == 1 && (key.elementsEqual("incident_id".utf8) || key.elementsEqual("incident".utf8)))
                    || (depth == reportDepth && key.elementsEqual("id".utf8))
                let isBugType = depth == 1 && key.elementsEqual("bug_type".utf8)
                if isIncident || isBugType {
                    var valueEnd = index
                    let value: ArraySlice<UInt8>
                    if bytes[index] == UInt8(ascii: "\"") {
                        guard let end = stringEnd(bytes, from: index + 1) else { break scan }
                        value = bytes[(index + 1) ..< end]
                        valueEnd = end + 1
                    } else {
                        while valueEnd < bytes.count, bytes[valueEnd] >= UInt8(ascii: "0"), bytes[valueEnd] <= UInt8(ascii: "9") { valueEnd += 1 }
                        value = isBugType ? bytes[index ..< valueEnd] : []
                    }
                    if isBugType { bugType = bugType ?? normalized(value) } else { incident = incident ?? normalized(value) }
                    if incident != nil, bugType != nil { break scan }
                    index = max(valueEnd, index + 1)
                    continue
                }
                if depth == 1, key.elementsEqual("report".utf8), bytes[index] == UInt8(ascii: "{") { reportDepth = 2 }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == reportDepth { reportDepth = -1 }
                depth -= 1
                if depth <= 0 { break scan }
            default:
                break
            }
            index += 1
        }
        guard let incident else { return nil }
        return "\(kind(bugType: bugType)):\(incident)"
    }

    /// The class an identity is unique in: crash reports in every format are one class (an
    /// `.ips` crash, its text rendering, KSCrash), other `.ips` kinds one each by `bug_type`.
    static func kind(bugType: String?) -> String {
        guard let bugType, !IPSBugType.crashes.contains(bugType) else { return "crash" }
        return "ips-" + bugType
    }

    /// The index of the quote closing a string whose content starts at `from`.
    static func stringEnd(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    static func skipWhitespace(_ bytes: [UInt8], from: Int) -> Int {
        var index = from
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The value trimmed and upper-cased, if it is an identifier.
    static func normalized(_ value: ArraySlice<UInt8>) -> String? {
        var slice = value
        while let first = slice.first, isWhitespace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isWhitespace(last) { slice = slice.dropLast() }
        guard !slice.isEmpty, slice.count <= maxLength else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(slice.count)
        for byte in slice {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"): result.append(byte - 32)
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
                result.append(byte)
            default:
                return nil
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
