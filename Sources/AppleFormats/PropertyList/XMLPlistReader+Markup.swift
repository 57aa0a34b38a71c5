/// Character data and markup: text with entities and CDATA, tags, comments and the DOCTYPE.
extension XMLPlistReader {
    // MARK: Text

    /// Character data up to `</name>`, as a string (entities and CDATA resolved, UTF-8 checked).
    mutating func string(closing name: String) throws(PlistError) -> String {
        let start = position
        let text = try self.text(closing: name)
        guard let string = String(validating: text, as: UTF8.self) else {
            throw PlistError("at byte \(start), <\(name)> holds bytes that are not UTF-8")
        }
        return string
    }

    /// Character data up to `</name>`, with entities and CDATA sections resolved and comments dropped.
    mutating func text(closing name: String) throws(PlistError) -> [UInt8] {
        var out: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                try entity(into: &out)
            } else if byte == UInt8(ascii: "<") {
                if isAt("</") {
                    try closeTag(name)
                    return out
                } else if isAt("<![CDATA[") {
                    let end = try find("]]>", from: position + 9, what: "CDATA section")
                    out += bytes[position + 9 ..< end]
                    position = end + 3
                } else if isAt("<!--") {
                    position = try find("-->", from: position + 4, what: "comment") + 3
                } else {
                    throw fail("<\(name)> contains an element; only text may appear in it")
                }
            } else {
                out.append(byte)
                position += 1
            }
        }
        throw fail("<\(name)> is never closed")
    }

    mutating func entity(into out: inout [UInt8]) throws(PlistError) {
        switch XMLEntity.read(bytes, at: position, into: &out) {
        case let .success(next): position = next
        case let .failure(problem): throw fail(problem.reason)
        }
    }

    // MARK: Markup

    func isAt(_ literal: String) -> Bool {
        var index = position
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// The position of `literal` at or after `start`.
    func find(_ literal: String, from start: Int, what: String) throws(PlistError) -> Int {
        let pattern = Array(literal.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index ..< index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        throw fail("a \(what) is never closed")
    }

    mutating func skipWhitespace() {
        while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
    }

    /// Skips whitespace, comments, processing instructions and the document type declaration.
    mutating func skipMisc() throws(PlistError) {
        while true {
            skipWhitespace()
            if isAt("<!--") {
                position = try find("-->", from: position + 4, what: "comment") + 3
            } else if isAt("<?") {
                position = try find("?>", from: position + 2, what: "processing instruction") + 2
            } else if isAt("<!DOCTYPE") {
                // An internal subset in brackets may itself contain '>'.
                var inSubset = false
                var index = position + 9
                while index < bytes.count, inSubset || bytes[index] != UInt8(ascii: ">") {
                    if bytes[index] == UInt8(ascii: "[") { inSubset = true }
                    if bytes[index] == UInt8(ascii: "]") { inSubset = false }
                    index += 1
                }
                guard index < bytes.count else { throw fail("the DOCTYPE is never closed") }
                position = index + 1
            } else {
                return
            }
        }
    }

    /// `<name attributes…>` or `<name …/>`; attributes are skipped.
    mutating func openTag() throws(PlistError) -> Tag {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw fail(position < bytes.count ? "text stands where an element belongs" : "the document ends where an element belongs")
        }
        let nameStart = position + 1
        var index = nameStart
        while index < bytes.count, bytes[index].isXMLNameByte { index += 1 }
        guard index > nameStart else { throw fail("a '<' is not followed by an element name") }
        let name = String(decoding: bytes[nameStart ..< index], as: UTF8.self)
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                position = index + 1
                return Tag(name: name, selfClosing: bytes[index - 1] == UInt8(ascii: "/"))
            } else if byte == UInt8(ascii: "<") {
                break
            }
            index += 1
        }
        throw fail("<\(name) is never closed with '>'")
    }

    /// `</name>`, allowing whitespace before the '>'.
    mutating func closeTag(_ name: String) throws(PlistError) {
        let expected = "</" + name
        guard isAt(expected) else {
            var end = position
            while end < bytes.count, end - position < 40, bytes[end] != UInt8(ascii: ">") { end += 1 }
            let found = end < bytes.count ? String(decoding: bytes[position ... end], as: UTF8.self) : "the end of the document"
            throw fail("expected </\(name)> but found \(found)")
        }
        position += expected.utf8.count
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw fail("</\(name) is never closed with '>'") }
        position += 1
    }
}
