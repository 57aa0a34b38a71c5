/// Why a document is not well-formed XML (or breaks a limit).
struct XMLTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "at byte \(offset), \(reason)" }
}

/// A strict reader for small XML documents such as crash uploads: elements, attributes, text,
/// CDATA, comments and processing instructions. A DOCTYPE is refused (no entity expansion, so no
/// "billion laughs"); only the five predefined entities and character references are known.
/// Nesting, element count and attribute count are limited, so hostile input is refused, not followed.
struct XMLTreeReader {
    let bytes: [UInt8]
    var position = 0
    var elementCount = 0

    /// Deepest nesting of elements: reading needs no recursion, but an `XMLTreeElement` tree is
    /// released and compared recursively.
    static let maxDepth = 64
    static let maxElements = 100_000
    static let maxAttributes = 64

    static func parse(_ bytes: [UInt8]) throws(XMLTreeError) -> XMLTreeElement {
        var reader = XMLTreeReader(bytes: bytes)
        return try reader.document()
    }

    func fail(_ reason: String) -> XMLTreeError { XMLTreeError(offset: position, reason: reason) }

    mutating func document() throws(XMLTreeError) -> XMLTreeElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMisc()
        guard position < bytes.count else { throw fail("there is no root element") }
        let root = try element(depth: 0)
        try skipMisc()
        guard position == bytes.count else { throw fail("content follows the root element") }
        return root
    }

    /// Skips whitespace, comments and processing instructions between elements.
    mutating func skipMisc() throws(XMLTreeError) {
        while true {
            while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
            if isAt("<!--") {
                position = try find("-->", from: position + 4, what: "comment") + 3
            } else if isAt("<?") {
                position = try find("?>", from: position + 2, what: "processing instruction") + 2
            } else if isAt("<!DOCTYPE") {
                throw fail("a DOCTYPE is not allowed (documents with entity declarations are refused)")
            } else {
                return
            }
        }
    }

    /// An element whose end tag has not been read yet.
    struct OpenElement {
        let name: String
        let attributes: [String: String]
        var text: [UInt8] = []
        var children: [XMLTreeElement] = []
    }

    /// What a start tag opened: an empty element (`<a/>`), or one whose content follows.
    enum StartTag {
        case complete(XMLTreeElement)
        case open(OpenElement)
    }

    /// The element starting here, inside `depth` others, and everything in it. Elements being read
    /// wait on an explicit stack, not on the thread's stack, so no input can exhaust it.
    mutating func element(depth: Int) throws(XMLTreeError) -> XMLTreeElement {
        var stack: [OpenElement] = []
        switch try startTag(depth: depth) {
        case let .complete(element): return element
        case let .open(open): stack.append(open)
        }
        while true {
            let top = stack.count - 1
            let name = stack[top].name
            guard position < bytes.count else { throw fail("<\(name)> is never closed") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                try entity(into: &stack[top].text)
            } else if byte != UInt8(ascii: "<") {
                stack[top].text.append(byte)
                position += 1
            } else if isAt("</") {
                position += 2
                let closing = try self.name()
                guard closing == name else { throw fail("</\(closing)> closes <\(name)>") }
                while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
                guard isAt(">") else { throw fail("</\(name) is never closed with '>'") }
                position += 1
                let open = stack.removeLast()
                let element = XMLTreeElement(name: name, attributes: open.attributes, text: try utf8(open.text, what: "the text of <\(name)>"), children: open.children)
                guard !stack.isEmpty else { return element }
                stack[stack.count - 1].children.append(element)
            } else if isAt("<![CDATA[") {
                let end = try find("]]>", from: position + 9, what: "CDATA section")
                stack[top].text += bytes[position + 9 ..< end]
                position = end + 3
            } else if isAt("<!--") {
                position = try find("-->", from: position + 4, what: "comment") + 3
            } else if isAt("<?") {
                position = try find("?>", from: position + 2, what: "processing instruction") + 2
            } else if isAt("<!") {
                throw fail("a declaration is not allowed inside <\(name)>")
            } else {
                switch try startTag(depth: depth + stack.count) {
                case let .complete(element): stack[top].children.append(element)
                case let .open(open): stack.append(open)
                }
            }
        }
    }

    /// A start tag inside `depth` elements, with its attributes.
    mutating func startTag(depth: Int) throws(XMLTreeError) -> StartTag {
        guard depth < Self.maxDepth else { throw fail("elements nest \(depth + 1) levels deep, more than the \(Self.maxDepth) allowed") }
        elementCount += 1
        guard elementCount <= Self.maxElements else { throw fail("the document has more than \(Self.maxElements) elements") }
        guard isAt("<") else { throw fail("text stands where an element belongs") }
        position += 1
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            let before = position
            while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
            guard position < bytes.count else { throw fail("<\(name) is never closed with '>'") }
            if isAt("/>") {
                position += 2
                return .complete(XMLTreeElement(name: name, attributes: attributes, text: "", children: []))
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            guard position > before else { throw fail("attributes of <\(name)> must be separated by whitespace") }
            let attribute = try self.name()
            while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
            guard isAt("=") else { throw fail("attribute \(attribute) of <\(name)> has no value") }
            position += 1
            while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw fail("the value of attribute \(attribute) is not quoted")
            }
            let quote = bytes[position]
            position += 1
            var value: [UInt8] = []
            while true {
                guard position < bytes.count else { throw fail("the value of attribute \(attribute) never ends") }
                let byte = bytes[position]
                if byte == quote { position += 1; break }
                if byte == UInt8(ascii: "<") { throw fail("attribute \(attribute) contains '<'") }
                if byte == UInt8(ascii: "&") { try entity(into: &value) } else { value.append(byte); position += 1 }
            }
            guard attributes[attribute] == nil else { throw fail("attribute \(attribute) of <\(name)> appears twice") }
            guard attributes.count < Self.maxAttributes else { throw fail("<\(name)> has more than \(Self.maxAttributes) attributes") }
            attributes[attribute] = try utf8(value, what: "attribute \(attribute)")
        }
        return .open(OpenElement(name: name, attributes: attributes))
    }

    mutating func name() throws(XMLTreeError) -> String {
        let start = position
        while position < bytes.count, bytes[position].isXMLNameByte || bytes[position] >= 0x80 { position += 1 }
        guard position > start else { throw fail("a name is missing") }
        guard position - start <= 256 else { throw fail("a name is longer than 256 bytes") }
        return try utf8(Array(bytes[start ..< position]), what: "a name")
    }

    func utf8(_ bytes: [UInt8], what: String) throws(XMLTreeError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw fail("\(what) is not UTF-8") }
        return text
    }

    mutating func entity(into out: inout [UInt8]) throws(XMLTreeError) {
        switch XMLEntity.read(bytes, at: position, into: &out) {
        case let .success(next): position = next
        case let .failure(problem): throw fail(problem.reason)
        }
    }

    func isAt(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            var index = 0
            while index < count {
                if bytes[position + index] != pattern[index] { return false }
                index += 1
            }
            return true
        }
    }

    func find(_ literal: StaticString, from start: Int, what: String) throws(XMLTreeError) -> Int {
        let pattern = literal.withUTF8Buffer { Array($0) }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index ..< index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        throw fail("a \(what) is never closed")
    }
}
