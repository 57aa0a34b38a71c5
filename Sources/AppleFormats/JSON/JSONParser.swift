/// An RFC 8259 parser into `JSONValue`: one pass over the bytes, nesting bounded by `maxDepth`,
/// and a typed error naming the byte offset for anything malformed. It accepts what JSONDecoder
/// accepts (raw control characters inside strings included), so a report reads the same either way.
struct JSONParser {
    /// Nesting deeper than JSONDecoder's own limit is refused rather than risking the stack.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    /// Parses one JSON value filling `bytes[range]` (surrounding whitespace allowed).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, position: range?.lowerBound ?? 0, end: range?.upperBound ?? bytes.count)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.end else { throw JSONParseError(offset: parser.position, reason: "unexpected text after the JSON value") }
        return value
    }

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in try parse(buffer) }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, position: Int, end: Int) {
        self.bytes = bytes
        self.position = position
        self.end = min(end, bytes.count)
    }

    private func failure(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    private mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < end else { throw failure("the JSON ends where a value should be") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return try string().map(JSONValue.string) ?? .unreadable
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character where a value should be")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard end - position >= count else { throw failure("the JSON ends inside a literal") }
        for index in 0 ..< count where bytes[position + index] != word.utf8Start[index] {
            throw failure("a misspelt literal")
        }
        position += count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONObject {
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if position < end, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            skipWhitespace()
            guard position < end, bytes[position] == UInt8(ascii: "\"") else { throw failure("an object member must start with a quoted name") }
            let key = try string()
            if key == nil { object.isValid = false }
            skipWhitespace()
            guard position < end, bytes[position] == UInt8(ascii: ":") else { throw failure("a colon must follow an object member's name") }
            position += 1
            skipWhitespace()
            object.keys.append(key ?? "")
            object.values.append(try value(depth: depth))
            skipWhitespace()
            guard position < end else { throw failure("the JSON ends inside an object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { throw failure("a comma or } must follow an object member") }
            position += 1
            return object
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> [JSONValue] {
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < end, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard position < end else { throw failure("the JSON ends inside an array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { throw failure("a comma or ] must follow an array element") }
            position += 1
            return elements
        }
    }

    /// A string's value, or nil when its content cannot be a string (a raw control character, a
    /// malformed escape, a lone surrogate, bytes that are not UTF-8). Like JSONDecoder, only the
    /// string's end is structural: a bad string fails the value, not the document.
    private mutating func string() throws(JSONParseError) -> String? {
        position += 1
        let start = position
        var simple = true
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                simple = false
                position += 2
                continue
            }
            if byte < 0x20 { simple = false }
            position += 1
        }
        guard position < end else { throw JSONParseError(offset: start - 1, reason: "a string that never ends") }
        let content = UnsafeBufferPointer(rebasing: bytes[start ..< position])
        position += 1
        if simple { return String(validating: content, as: UTF8.self) }
        return Self.unescape(content)
    }

    /// The value of a string's content with escapes; nil when it is not a valid string.
    private static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(content.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= content.count else { return nil }
            var value: UInt32 = 0
            for byte in content[at ..< at + 4] {
                guard let digit = UInt8(ascii: "0") ... UInt8(ascii: "9") ~= byte ? byte - UInt8(ascii: "0")
                        : UInt8(ascii: "a") ... UInt8(ascii: "f") ~= byte ? byte - UInt8(ascii: "a") + 10
                        : UInt8(ascii: "A") ... UInt8(ascii: "F") ~= byte ? byte - UInt8(ascii: "A") + 10 : nil else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < content.count {
            let byte = content[index]
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 1 < content.count else { return nil }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(index) else { return nil }
                index += 4
                if (0xD800 ... 0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 6 <= content.count, content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u"),
                          let low = hex4(index + 2), (0xDC00 ... 0xDFFF).contains(low) else { return nil }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00 ... 0xDFFF).contains(scalar) {
                    return nil
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                decoded.append(contentsOf: String(Character(unicode)).utf8)
            default:
                return nil
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    /// A number. Like JSONDecoder, the token is the whole run of number characters (digits,
    /// `+`, `-`, `.`, `e`, `E`); a run that is not an RFC 8259 number, or has leading zeros,
    /// parses but reads as nothing (`unreadable`).
    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = position
        var runEnd = position
        while runEnd < end, Self.isNumberCharacter(bytes[runEnd]) { runEnd += 1 }
        position = runEnd
        return Self.number(UnsafeBufferPointer(rebasing: bytes[start ..< runEnd])) ?? .unreadable
    }

    static func isNumberCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// The value of a number token, nil unless it is exactly an RFC 8259 number without leading zeros.
    static func number(_ token: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var index = 0
        let count = token.count
        func isDigit(_ at: Int) -> Bool { at < count && token[at] >= UInt8(ascii: "0") && token[at] <= UInt8(ascii: "9") }
        var negative = false
        if index < count, token[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard isDigit(index) else { return nil }
        if token[index] == UInt8(ascii: "0"), isDigit(index + 1) { return nil }
        var magnitude: UInt64 = 0
        var overflow = false
        while isDigit(index) {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(token[index] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = plus
            index += 1
        }
        var integral = true
        if index < count, token[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if index < count, token[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index += 1
            if index < count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        guard index == count else { return nil }
        if integral && !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            } else {
                if magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
                return .unsigned(magnitude)
            }
        }
        guard let double = Double(String(decoding: token, as: UTF8.self)), double.isFinite else { return nil }
        return .double(double)
    }
}

/// Why JSON could not be parsed: the byte offset and what was wrong there.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    var offset: Int
    var reason: String

    var description: String { "\(reason) at byte \(offset)" }
}
