#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
// vsnprintf: "%.17g", the digits Apple writes for a real (no system call); the only C function used here.
#if canImport(Glibc)
import func Glibc.vsnprintf
#elseif canImport(Darwin)
import func Darwin.vsnprintf
#endif

/// Writes `PlistValue` as an XML property list in the layout Apple's Foundation writes: tab
/// indentation, sorted keys, `<dict/>` and `<array/>` when empty, base64 wrapped to fit 76
/// columns of indentation (tabs counted as 8, at most 8 of them), and dates in whole UTC seconds.
enum XMLPlistWriter {
    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
        try append(value, depth: 0, to: &out)
        out.append(contentsOf: "</plist>\n".utf8)
        return out
    }

    static func append(_ value: PlistValue, depth: Int, to out: inout [UInt8]) throws(PlistError) {
        func indent(_ level: Int) { out += repeatElement(UInt8(ascii: "\t"), count: level) }
        func line(_ text: String) {
            indent(depth)
            out.append(contentsOf: text.utf8)
            out.append(0x0A)
        }
        func element(_ name: String, _ content: String) { line("<\(name)>\(content)</\(name)>") }
        switch value {
        case let .string(text): element("string", escaped(text))
        case let .integer(number): element("integer", String(number))
        case let .real(number): element("real", real(number))
        case let .bool(flag): line(flag ? "<true/>" : "<false/>")
        case let .date(date): element("date", try dateText(date))
        case let .data(bytes):
            line("<data>")
            let width = 76 - 8 * min(depth, 8)
            let encoded = Base64.encode(bytes)
            var start = 0
            while start < encoded.count {
                let end = min(encoded.count, start + width)
                indent(min(depth, 8))
                out += encoded[start ..< end]
                out.append(0x0A)
                start = end
            }
            line("</data>")
        case let .array(elements):
            guard !elements.isEmpty else { return line("<array/>") }
            line("<array>")
            for element in elements { try append(element, depth: depth + 1, to: &out) }
            line("</array>")
        case let .dictionary(entries):
            guard !entries.isEmpty else { return line("<dict/>") }
            line("<dict>")
            for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
                indent(depth + 1)
                out.append(contentsOf: "<key>\(escaped(key))</key>\n".utf8)
                try append(element, depth: depth + 1, to: &out)
            }
            line("</dict>")
        }
    }

    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Seventeen significant digits (enough to read back the same double), as Apple writes them.
    static func real(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        if number == 0 { return "0.0" }
        var buffer = [CChar](repeating: 0, count: 40)
        let length = withVaList([number]) { vsnprintf(&buffer, buffer.count, "%.17g", $0) }
        return String(decoding: buffer.prefix(Int(max(0, length))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func dateText(_ date: Date) throws(PlistError) -> String {
        guard let parts = UTCDateComponents(date) else {
            throw PlistError("the date \(date.timeIntervalSince1970) seconds from 1970 cannot be written in an XML property list, whose dates have four-digit years (0000 to 9999); store a date inside that range")
        }
        return parts.iso8601
    }
}
