#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads XML property lists (Apple's `plist` DTD, UTF-8) into `PlistValue`.
///
/// Strict where it matters for security-relevant files such as entitlements and profiles:
/// unknown elements, mismatched tags, duplicate keys, bad numbers, dates, base64 or UTF-8 are
/// errors. Comments, processing instructions and the DOCTYPE are skipped; the `<plist>` wrapper
/// is optional, as it is for Apple's parser.
struct XMLPlistReader {
    let bytes: [UInt8]
    var position = 0

    /// Deepest nesting of arrays and dictionaries: reading needs no recursion, but walking a
    /// `PlistValue` (equality, writing, release) does.
    static let maxDepth = PlistValue.maximumNesting

    struct Tag {
        var name: String
        var selfClosing: Bool
    }

    static func parse(_ bytes: [UInt8]) throws(PlistError) -> PlistValue {
        var reader = XMLPlistReader(bytes: bytes)
        return try reader.document()
    }

    func fail(_ reason: String) -> PlistError { PlistError("at byte \(position), \(reason)") }

    mutating func document() throws(PlistError) -> PlistValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMisc()
        guard position < bytes.count else { throw fail("there is no element") }
        let tag = try openTag()
        let value: PlistValue
        if tag.name == "plist" {
            guard !tag.selfClosing else { throw fail("<plist/> holds no value") }
            try skipMisc()
            value = try self.value(depth: 0)
            try skipMisc()
            try closeTag("plist")
        } else {
            value = try self.value(for: tag, depth: 0)
        }
        try skipMisc()
        guard position == bytes.count else { throw fail("content follows the end of the property list") }
        return value
    }

    // MARK: Values

    /// An array or dictionary whose closing tag has not been read yet.
    struct Open {
        let isDictionary: Bool
        var elements: [PlistValue] = []
        var entries: [String: PlistValue] = [:]
        /// In a dictionary: the key whose value is being read, and where its tag starts.
        var key = ""
        var keyStart = 0
    }

    /// The value after the current position, which must not be a closing tag.
    mutating func value(depth: Int) throws(PlistError) -> PlistValue {
        guard !isAt("</") else { throw fail("a value is missing before a closing tag") }
        return try value(for: openTag(), depth: depth)
    }

    /// The value that `tag` opens, inside `depth` arrays and dictionaries. Arrays and dictionaries
    /// being read wait on an explicit stack, not on the thread's stack, so no input can exhaust
    /// it; `maxDepth` still bounds the nesting, for the recursive walks of the value afterwards.
    mutating func value(for first: Tag, depth: Int) throws(PlistError) -> PlistValue {
        var stack: [Open] = []
        var tag = first
        while true {
            var finished: PlistValue?
            if tag.name == "dict" || tag.name == "array" {
                guard depth + stack.count < Self.maxDepth else {
                    throw PlistError.nestedTooDeep(depth: depth + stack.count + 1, limit: Self.maxDepth, at: "at byte \(position), ")
                }
                if tag.selfClosing {
                    finished = tag.name == "dict" ? .dictionary([:]) : .array([])
                } else {
                    stack.append(Open(isDictionary: tag.name == "dict"))
                }
            } else {
                finished = try scalar(for: tag)
            }
            // Hand finished values to their containers and close containers, until a tag opens the next value.
            while true {
                if let value = finished {
                    guard !stack.isEmpty else { return value }
                    let top = stack.count - 1
                    if stack[top].isDictionary {
                        let key = stack[top].key
                        guard stack[top].entries.updateValue(value, forKey: key) == nil else {
                            throw PlistError("at byte \(stack[top].keyStart), key \"\(key)\" appears twice in one dictionary")
                        }
                    } else {
                        stack[top].elements.append(value)
                    }
                    finished = nil
                }
                try skipMisc()
                let top = stack.count - 1
                if isAt("</") {
                    let open = stack.removeLast()
                    try closeTag(open.isDictionary ? "dict" : "array")
                    finished = open.isDictionary ? .dictionary(open.entries) : .array(open.elements)
                    continue
                }
                if stack[top].isDictionary {
                    let keyStart = position
                    let keyTag = try openTag()
                    guard keyTag.name == "key" else { throw PlistError("at byte \(keyStart), <\(keyTag.name)> stands where a dictionary needs a <key>") }
                    let key = keyTag.selfClosing ? "" : try string(closing: "key")
                    try skipMisc()
                    guard !isAt("</") else { throw fail("key \"\(key)\" has no value") }
                    stack[top].key = key
                    stack[top].keyStart = keyStart
                }
                tag = try openTag()
                break
            }
        }
    }

    /// The value of a tag that is not an array or dictionary.
    mutating func scalar(for tag: Tag) throws(PlistError) -> PlistValue {
        switch tag.name {
        case "string":
            return .string(tag.selfClosing ? "" : try string(closing: "string"))
        case "true", "false":
            if !tag.selfClosing {
                skipWhitespace()
                try closeTag(tag.name)
            }
            return .bool(tag.name == "true")
        case "integer":
            return .integer(try integer(tag.selfClosing ? [] : text(closing: "integer")))
        case "real":
            return .real(try real(tag.selfClosing ? [] : text(closing: "real")))
        case "date":
            return .date(try date(tag.selfClosing ? [] : text(closing: "date")))
        case "data":
            guard !tag.selfClosing else { return .data([]) }
            let start = position
            let encoded = try text(closing: "data")
            do { return .data(try Base64.decode(encoded[...])) } catch {
                throw PlistError("at byte \(start), <data> is not valid base64: \(error.reason)")
            }
        case "key":
            throw fail("<key> appears outside a dictionary")
        default:
            throw fail("<\(tag.name)> is not a property list element")
        }
    }

    // MARK: Scalars

    func trimmed(_ text: [UInt8]) -> ArraySlice<UInt8> {
        var slice = text[...]
        while let first = slice.first, first.isXMLWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isXMLWhitespace { slice = slice.dropLast() }
        return slice
    }

    func integer(_ text: [UInt8]) throws(PlistError) -> Int64 {
        var digits = trimmed(text)
        let shown = String(decoding: digits, as: UTF8.self)
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        var radix: UInt64 = 10
        if digits.starts(with: Array("0x".utf8)) || digits.starts(with: Array("0X".utf8)) {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty else { throw fail("<integer>\(shown)</integer> holds no number") }
        let magnitude: UInt64
        do { magnitude = try UInt64(digits: digits, radix: radix) } catch {
            switch error {
            case .notADigit: throw fail("<integer>\(shown)</integer> is not a whole number")
            case .overflow: throw fail("<integer>\(shown)</integer> does not fit in 64 bits")
            }
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("<integer>\(shown)</integer> does not fit in 64 bits") }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw fail("<integer>\(shown)</integer> is larger than a signed 64-bit integer") }
        return Int64(magnitude)
    }

    func real(_ text: [UInt8]) throws(PlistError) -> Double {
        let shown = String(decoding: trimmed(text), as: UTF8.self)
        switch shown.lowercased() {
        case "nan": return .nan
        case "+infinity", "infinity", "+inf", "inf": return .infinity
        case "-infinity", "-inf": return -.infinity
        default:
            guard !shown.isEmpty, let value = Double(shown) else { throw fail("<real>\(shown)</real> is not a number") }
            return value
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, optionally with a fraction of a second, always in UTC.
    func date(_ text: [UInt8]) throws(PlistError) -> Date {
        let digits = Array(trimmed(text))
        do {
            let (components, fraction) = try UTCDateComponents.parse(digits, layout: .iso8601)
            return components.date.addingTimeInterval(fraction)
        } catch {
            throw fail("<date>\(String(decoding: digits, as: UTF8.self))</date> is not a UTC date of the form 2024-05-31T12:00:00Z")
        }
    }
}
