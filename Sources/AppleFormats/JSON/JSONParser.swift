/// An RFC 8259 parser into a `JSONTape` (or a `JSONValue` tree): one pass over the bytes,
/// nesting bounded by `maxDepth`, and a typed error naming the byte offset for anything
/// malformed. It accepts what JSONDecoder accepts (raw control characters inside strings, and a
/// trailing comma before `}` or `]`, included), so a report reads the same either way.
struct JSONParser {
    /// Deepest nesting of arrays and objects (`JSONNesting.maximumDepth`): the parser keeps open
    /// arrays and objects on a stack of its own, but a `JSONValue` tree is walked recursively.
    static let maxDepth = JSONNesting.maximumDepth
    /// Most values in one document: a hostile report of tiny values (`[0,0,0,…]`) is refused
    /// rather than held in memory as millions of nodes. Real reports have a few tens of thousands.
    static let maxValues = 1_000_000

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    let end: Int
    /// The tape being written.
    var nodes: [JSONTape.Node] = []
    /// Most values this parse accepts (`maxValues`; tests lower it), and how many it has read.
    var valueLimit = JSONParser.maxValues
    private var values = 0

    /// Parses one JSON value filling `bytes[range]` (surrounding whitespace allowed).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil) throws(JSONParseError) -> JSONValue {
        try JSONTape.parse(bytes, in: range).withRoot(bytes) { $0.value }
    }

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in try parse(buffer) }
    }

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int, end: Int) {
        self.bytes = bytes
        self.position = position
        self.end = min(end, bytes.count)
    }

    private func failure(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    /// Skips whitespace. Most calls find none (between a name and its colon, a value and its
    /// comma), so that case is decided inline from one byte: whitespace is at most 0x20.
    @inline(__always)
    mutating func skipWhitespace() {
        guard position < end, bytes[position] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        // Reports are indented JSON: a line break, then a run of spaces skipped eight at a time.
        guard let origin = bytes.baseAddress else { return }
        while position < end {
            switch bytes[position] {
            case 0x20:
                // Eight bytes at a time; in the word that ends the run, the first byte that is
                // not a space is found from the lowest set bit of the difference.
                while end - position >= 8 {
                    let different = UInt64(littleEndian: UnsafeRawPointer(origin + position).loadUnaligned(as: UInt64.self)) ^ 0x2020_2020_2020_2020
                    guard different == 0 else {
                        position += different.trailingZeroBitCount / 8
                        break
                    }
                    position += 8
                }
                if position < end, bytes[position] == 0x20 { position += 1 }
            case 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func append(_ kind: JSONTape.Kind, flag: Bool = false, first: Int = 0, last: Int = 0, bits: UInt64 = 0) {
        nodes.append(bits != 0 ? JSONTape.Node(kind: kind, bits: bits)
                     : JSONTape.Node(kind: kind, flag: flag, ascii: false, first: Int32(truncatingIfNeeded: first), last: Int32(truncatingIfNeeded: last)))
    }

    /// An array or object whose closing bracket has not been read yet.
    private struct Open {
        /// Its node on the tape.
        let node: Int
        let isObject: Bool
        /// Members or elements read so far.
        var count: Int32 = 0
    }

    /// One JSON value and everything in it, written to the tape. Arrays and objects being read wait
    /// on an explicit stack, not on the thread's stack, so no input can exhaust it; `maxDepth`
    /// still bounds the nesting, for the recursive walks of `JSONValue` trees afterwards.
    mutating func value(depth: Int) throws(JSONParseError) {
        var open: [Open] = []
        while true {
            // A value starts here.
            guard position < end else { throw failure("the JSON ends where a value should be") }
            guard values < valueLimit else { throw failure("more than \(valueLimit) values") }
            values += 1
            var opened = false
            switch bytes[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[position] == UInt8(ascii: "{")
                guard depth + open.count < Self.maxDepth else {
                    throw JSONParseError.nestedTooDeep(offset: position, depth: depth + open.count + 1, limit: Self.maxDepth)
                }
                position += 1
                let node = nodes.count
                append(isObject ? .object : .array, flag: isObject)
                skipWhitespace()
                if position < end, bytes[position] == UInt8(ascii: isObject ? "}" : "]") {
                    position += 1
                    close(node, count: 0)
                } else {
                    open.append(Open(node: node, isObject: isObject))
                    opened = true
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true"); append(.bool, flag: true)
            case UInt8(ascii: "f"): try literal("false"); append(.bool, flag: false)
            case UInt8(ascii: "n"): try literal("null"); append(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): number()
            default: throw failure("unexpected character where a value should be")
            }
            // After a value: commas and closing brackets, until the next value starts.
            let finished = !opened
            while true {
                guard let top = open.last else { return }
                if finished {
                    open[open.count - 1].count += 1
                    skipWhitespace()
                    guard position < end else { throw failure(top.isObject ? "the JSON ends inside an object" : "the JSON ends inside an array") }
                    let closer = UInt8(ascii: top.isObject ? "}" : "]")
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        // A trailing comma ends the object or array, as JSONDecoder takes it.
                        skipWhitespace()
                        if position < end, bytes[position] == closer {
                            position += 1
                            close(top.node, count: open.removeLast().count)
                            continue
                        }
                    } else {
                        guard bytes[position] == closer else {
                            throw failure(top.isObject ? "a comma or } must follow an object member" : "a comma or ] must follow an array element")
                        }
                        position += 1
                        close(top.node, count: open.removeLast().count)
                        continue
                    }
                }
                skipWhitespace()
                if top.isObject { try memberName(of: top.node) }
                break
            }
        }
    }

    /// Records an array's or object's member count and where its last descendant ends.
    private mutating func close(_ node: Int, count: Int32) {
        nodes[node].first = count
        nodes[node].last = Int32(truncatingIfNeeded: nodes.count)
    }

    /// An object member's name and its colon, up to where the value starts.
    private mutating func memberName(of node: Int) throws(JSONParseError) {
        guard position < end, bytes[position] == UInt8(ascii: "\"") else { throw failure("an object member must start with a quoted name") }
        let key = nodes.count
        try string()
        // A name that is not a valid string makes the whole object unreadable as one.
        if !(nodes[key].flag && nodes[key].ascii) {
            let name = UnsafeBufferPointer(rebasing: bytes[Int(nodes[key].first) ..< Int(nodes[key].last)])
            if !(nodes[key].flag ? Self.isValidUTF8(name) : Self.unescape(name) != nil) { nodes[node].flag = false }
        }
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: ":") else { throw failure("a colon must follow an object member's name") }
        position += 1
        skipWhitespace()
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard end - position >= count else { throw failure("the JSON ends inside a literal") }
        for index in 0 ..< count where bytes[position + index] != word.utf8Start[index] {
            throw failure("a misspelt literal")
        }
        position += count
    }

    /// A string: its node records where the content is and whether it is simple (no escape, no
    /// control byte); its value is made only when a reader asks (`JSONView.string`), and is nil
    /// when the content cannot be a string (a raw control character, a malformed escape, a lone
    /// surrogate, bytes that are not UTF-8). Like JSONDecoder, only the string's end is
    /// structural: a bad string fails the value, not the document.
    private mutating func string() throws(JSONParseError) {
        position += 1
        let start = position
        var simple = true
        // Whether any byte is 0x80 or above (then the content must be checked as UTF-8).
        var high: UInt64 = 0
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Eight bytes at a time while none is a quote, a backslash or a control byte.
        if let origin = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            while end - position >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(origin + position).loadUnaligned(as: UInt64.self))
                let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                guard special & highs == 0 else { break }
                high |= word
                position += 8
            }
        }
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                simple = false
                // As JSONDecoder scans it: `\u` takes the next four bytes whatever they are (their
                // value is checked with the string's), but a quote among them, or the text ending
                // first, breaks the document.
                if position + 1 < end, bytes[position + 1] == UInt8(ascii: "u") {
                    guard end - position >= 6, !bytes[position + 2 ..< position + 6].contains(UInt8(ascii: "\"")) else {
                        throw failure("a \\u escape cut short by the end of its string")
                    }
                    position += 6
                } else {
                    position += 2
                }
                continue
            }
            if byte < 0x20 { simple = false }
            high |= UInt64(byte)
            position += 1
        }
        guard position < end else { throw JSONParseError(offset: start - 1, reason: "a string that never ends") }
        nodes.append(JSONTape.Node(kind: .string, flag: simple, ascii: high & highs == 0, first: Int32(truncatingIfNeeded: start),
                                   last: Int32(truncatingIfNeeded: position)))
        position += 1
    }

    /// Whether `content` is valid UTF-8.
    static func isValidUTF8(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        content.allSatisfy { $0 < 0x80 } || validString(content) != nil
    }

    /// `content` as a string when it is valid UTF-8, else nil (what `String(validating:as:)`
    /// says, without its generic code: every member name of a report goes through here, and
    /// the generic metadata lookups cost ten times the decoding). Valid UTF-8 decodes to exactly
    /// its own bytes; anything else is repaired, so the bytes differ.
    static func validString(_ content: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: content, as: UTF8.self)
        if content.allSatisfy({ $0 < 0x80 }) { return string }
        return string.utf8.elementsEqual(content) ? string : nil
    }

    /// The value of a string's content with escapes; nil when it is not a valid string.
    static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> String? {
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
        return decoded.withUnsafeBufferPointer { validString($0) }
    }

    /// A number. Like JSONDecoder, the token is the whole run of number characters (digits,
    /// `+`, `-`, `.`, `e`, `E`); a run that is not an RFC 8259 number, or has leading zeros,
    /// parses but reads as nothing (`unreadable`).
    private mutating func number() {
        let start = position
        // Most numbers in reports are small non-negative integers: digits, then a byte that ends
        // the token. Those are read here at once; anything else takes the general path.
        var value: UInt64 = 0
        var digits = position
        while digits < end, digits - position < 18, bytes[digits] &- UInt8(ascii: "0") < 10 {
            value = value &* 10 &+ UInt64(bytes[digits] &- UInt8(ascii: "0"))
            digits += 1
        }
        if digits > position, digits - position < 18, digits == end || !Self.isNumberCharacter(bytes[digits]),
           bytes[position] != UInt8(ascii: "0") || digits - position == 1 {
            position = digits
            append(.integer, bits: value)
            return
        }
        var runEnd = position
        while runEnd < end, Self.isNumberCharacter(bytes[runEnd]) { runEnd += 1 }
        position = runEnd
        switch Self.number(UnsafeBufferPointer(rebasing: bytes[start ..< runEnd])) {
        case let .integer(value)?: append(.integer, bits: UInt64(bitPattern: value))
        case let .unsigned(value)?: append(.unsigned, bits: value)
        case let .double(value)?: append(.double, bits: value.bitPattern)
        default: append(.unreadable)
        }
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
    /// For nesting past the limit: how deep, and the limit.
    var nesting: JSONNesting.TooDeep?

    init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// Arrays and objects nested `depth` deep at `offset`, past `limit`.
    static func nestedTooDeep(offset: Int, depth: Int, limit: Int) -> JSONParseError {
        let tooDeep = JSONNesting.TooDeep(offset: offset, depth: depth, limit: limit)
        var error = JSONParseError(offset: offset, reason: tooDeep.reason)
        error.nesting = tooDeep
        return error
    }

    var description: String { "\(reason) at byte \(offset)" }
}
