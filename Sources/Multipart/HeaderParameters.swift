/// One `name=value` parameter of a Content-Type or Content-Disposition value.
struct HeaderParameter: Equatable {
    /// The name, lowercased (parameter names are case-insensitive).
    var name: String
    /// The value's bytes, with quoted-pairs resolved.
    var value: [UInt8]
    /// Whether the value was a quoted-string.
    var quoted: Bool
}

/// Why a header value could not be read; the caller wraps it into the error naming the part.
struct HeaderSyntaxError: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// The parameter syntax of RFC 9110 §5.6.6 shared by Content-Type (§8.3.1) and Content-Disposition
/// (RFC 6266 §4.1): `*( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )`.
enum HeaderParameters {
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let semicolon: UInt8 = 0x3B

    /// `tchar` of RFC 9110 §5.6.2.
    static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             // ! # $ % & ' * + - . ^ _ ` | ~
             0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            true
        default:
            false
        }
    }

    /// Reads the leading token of a header value (a disposition type, or `type/subtype` when
    /// `slash` is set) and returns it lowercased with the index after it.
    static func leadingToken(_ text: [UInt8], slash: Bool) throws(HeaderSyntaxError) -> (String, Int) {
        var index = 0
        while index < text.count, text[index] == space || text[index] == tab { index += 1 }
        let start = index
        var slashes = 0
        while index < text.count, isToken(text[index]) || (slash && text[index] == UInt8(ascii: "/")) {
            if text[index] == UInt8(ascii: "/") { slashes += 1 }
            index += 1
        }
        let token = lowercased(text[start..<index])
        guard !token.isEmpty else { throw HeaderSyntaxError("it does not start with a token") }
        if slash {
            guard slashes == 1, token.first != "/", token.last != "/" else { throw HeaderSyntaxError("\"\(token)\" is not a type/subtype") }
        }
        return (token, index)
    }

    /// The parameters after `start`. An unquoted value is any run of visible ASCII other than `;`
    /// and `"` (callers that need a token check for one), so that the common unquoted boundaries
    /// with `=` or `/`, which RFC 2046 says must be quoted, still read.
    static func parse(_ text: [UInt8], from start: Int) throws(HeaderSyntaxError) -> [HeaderParameter] {
        var index = start
        var result: [HeaderParameter] = []
        func skipWhitespace() {
            while index < text.count, text[index] == space || text[index] == tab { index += 1 }
        }
        while true {
            skipWhitespace()
            guard index < text.count else { return result }
            guard text[index] == semicolon else {
                throw HeaderSyntaxError("\(describe(text[index])) stands where \";\" or the end was expected")
            }
            index += 1
            skipWhitespace()
            guard index < text.count else { return result }
            if text[index] == semicolon { continue }
            let nameStart = index
            while index < text.count, isToken(text[index]) { index += 1 }
            guard index > nameStart else { throw HeaderSyntaxError("a parameter name is missing before \(describe(text[index]))") }
            let name = lowercased(text[nameStart..<index])
            guard index < text.count, text[index] == UInt8(ascii: "=") else {
                throw HeaderSyntaxError("the parameter \(name) has no \"=\" directly after its name")
            }
            index += 1
            if index < text.count, text[index] == quote {
                index += 1
                var value: [UInt8] = []
                var closed = false
                while index < text.count {
                    let byte = text[index]
                    index += 1
                    if byte == quote {
                        closed = true
                        break
                    }
                    if byte == backslash {
                        // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                        guard index < text.count else { break }
                        let escaped = text[index]
                        index += 1
                        guard isQuotedText(escaped) || escaped == quote || escaped == backslash else {
                            throw HeaderSyntaxError("the parameter \(name) escapes a control character")
                        }
                        value.append(escaped)
                        continue
                    }
                    guard isQuotedText(byte) else { throw HeaderSyntaxError("the parameter \(name) contains a control character") }
                    value.append(byte)
                }
                guard closed else { throw HeaderSyntaxError("the quoted value of the parameter \(name) is not closed") }
                result.append(HeaderParameter(name: name, value: value, quoted: true))
            } else {
                let valueStart = index
                while index < text.count, text[index] > space, text[index] < 0x7F, text[index] != semicolon, text[index] != quote { index += 1 }
                guard index > valueStart else { throw HeaderSyntaxError("the parameter \(name) has no value") }
                result.append(HeaderParameter(name: name, value: Array(text[valueStart..<index]), quoted: false))
            }
        }
    }

    /// qdtext of RFC 9110 §5.6.4 without the quote and backslash: HTAB, SP, visible ASCII, obs-text.
    static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= space && byte != 0x7F && byte != quote && byte != backslash)
    }

    static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// A byte as messages show it: the character when printable, else its hex value.
    static func describe(_ byte: UInt8) -> String {
        byte > space && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
