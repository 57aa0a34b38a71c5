/// A parsed JSON document kept as one flat list of nodes over its bytes, the way crash reports
/// are read: no node allocates, strings are made only for the values a reader asks for, and
/// member names are compared as bytes.
///
/// Every value is one node; an object's node is followed by its members (a string node for the
/// name, then the value's nodes), an array's by its elements. A container's node says how many
/// members or elements it has and where its last descendant ends, so a reader skips a value in
/// one step.
struct JSONTape {
    enum Kind: UInt8 {
        case null, bool, integer, unsigned, double, string, unreadable, array, object
    }

    struct Node {
        var kind: Kind
        /// `bool`: its value. `string`: whether the content has no escape and no control byte
        /// (then it is the string as it is, if it is UTF-8). `object`: whether every member name
        /// is a valid string.
        var flag: Bool
        /// `string`: whether every byte of the content is ASCII.
        var ascii: Bool
        /// `string`: where the content starts. `array`, `object`: how many elements or members.
        var first: Int32
        /// `string`: where the content ends. `array`, `object`: the index of the node after the
        /// container's last descendant.
        var last: Int32

        /// `integer`, `unsigned`, `double`: the value's bits, kept in `first` and `last` (a node is
        /// 12 bytes, so even a document of tiny values stays near its own size).
        var bits: UInt64 { UInt64(UInt32(bitPattern: first)) | UInt64(UInt32(bitPattern: last)) << 32 }

        init(kind: Kind, flag: Bool, ascii: Bool, first: Int32, last: Int32) {
            self.kind = kind
            self.flag = flag
            self.ascii = ascii
            self.first = first
            self.last = last
        }

        init(kind: Kind, bits: UInt64) {
            self.init(kind: kind, flag: false, ascii: false, first: Int32(bitPattern: UInt32(truncatingIfNeeded: bits)),
                      last: Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)))
        }
    }

    var nodes: [Node]

    /// Parses one JSON value filling `bytes[range]` (surrounding whitespace allowed). Offsets
    /// must fit in 32 bits; crash reports are limited far below that.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil,
                      maxValues: Int = JSONParser.maxValues) throws(JSONParseError) -> JSONTape {
        let end = Swift.min(range?.upperBound ?? bytes.count, bytes.count)
        guard end <= Int(Int32.max) else { throw JSONParseError(offset: 0, reason: "a JSON text over 2 GB") }
        var parser = JSONParser(bytes: bytes, position: range?.lowerBound ?? 0, end: end)
        parser.valueLimit = maxValues
        parser.nodes.reserveCapacity(Swift.max(16, (end - parser.position) / 16))
        parser.skipWhitespace()
        try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.end else { throw JSONParseError(offset: parser.position, reason: "unexpected text after the JSON value") }
        return JSONTape(nodes: parser.nodes)
    }

    /// Calls `body` with a view of the document's root: views point into the tape and `bytes`,
    /// so they are valid only during the call.
    func withRoot<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONView) throws -> R) rethrows -> R {
        try nodes.withUnsafeBufferPointer { nodes in try body(JSONView(nodes: nodes, bytes: bytes, index: 0)) }
    }
}

/// One value of a `JSONTape`, read in place. The accessors mean what `JSONValue`'s do.
struct JSONView {
    let nodes: UnsafeBufferPointer<JSONTape.Node>
    let bytes: UnsafeBufferPointer<UInt8>
    let index: Int

    var kind: JSONTape.Kind { nodes[index].kind }

    /// The index of the node after this value and everything in it.
    var next: Int {
        switch nodes[index].kind {
        case .array, .object: Int(nodes[index].last)
        default: index + 1
        }
    }

    /// The object, when this is one whose member names are all valid strings.
    var object: JSONObjectView? {
        nodes[index].kind == .object && nodes[index].flag ? JSONObjectView(view: self) : nil
    }

    /// The elements, when this is an array.
    var array: JSONArrayView? {
        nodes[index].kind == .array ? JSONArrayView(view: self) : nil
    }

    /// The text, when this is a string whose content is a valid string.
    var string: String? {
        let node = nodes[index]
        guard node.kind == .string else { return nil }
        let content = UnsafeBufferPointer(rebasing: bytes[Int(node.first) ..< Int(node.last)])
        if node.flag && node.ascii { return String(decoding: content, as: UTF8.self) }
        return node.flag ? JSONParser.validString(content) : JSONParser.unescape(content)
    }

    /// Whether this is a string with exactly the value `text`, compared without making a string.
    func isString(_ text: StaticString) -> Bool {
        let node = nodes[index]
        guard node.kind == .string else { return false }
        let count = text.utf8CodeUnitCount
        if node.flag {
            guard Int(node.last - node.first) == count else { return false }
            guard let origin = bytes.baseAddress else { return count == 0 }
            return Self.equal(UnsafeRawPointer(origin + Int(node.first)), UnsafeRawPointer(text.utf8Start), count: count)
        }
        // Escapes: rare in member names, compared as the decoded string.
        return string.map { $0.utf8.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count)) } ?? false
    }

    /// Whether `count` bytes at `a` and `b` are the same: member names are compared eight bytes
    /// at a time (two overlapping words cover 8 to 16 bytes).
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 8 else {
            for offset in 0 ..< count where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            return true
        }
        var offset = 0
        while count - offset > 8 {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// The value, when this is `true` or `false`.
    var bool: Bool? { nodes[index].kind == .bool ? nodes[index].flag : nil }

    /// The number as an Int64 when it is a whole number in range (as JSONDecoder reads integers).
    var int64: Int64? {
        let node = nodes[index]
        switch node.kind {
        case .integer: return Int64(bitPattern: node.bits)
        case .double:
            let value = Double(bitPattern: node.bits)
            return value.rounded(.towardZero) == value && value >= -9.223372036854775808e18 && value < 9.223372036854775808e18 ? Int64(value) : nil
        default: return nil
        }
    }

    /// The number as an Int when it is a whole number in range.
    var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// The number as a UInt64 when it is a whole non-negative number in range.
    var uint64: UInt64? {
        let node = nodes[index]
        switch node.kind {
        case .integer:
            let value = Int64(bitPattern: node.bits)
            return value >= 0 ? UInt64(value) : nil
        case .unsigned: return node.bits
        case .double:
            let value = Double(bitPattern: node.bits)
            return value.rounded(.towardZero) == value && value >= 0 && value < 1.8446744073709552e19 ? UInt64(value) : nil
        default: return nil
        }
    }

    /// A string, or a whole number written where a string was expected (`"bug_type": 309`).
    var lenientString: String? {
        if nodes[index].kind == .string { return string }
        return int64.map(String.init)
    }

    /// Whether this is `null`.
    var isNull: Bool { nodes[index].kind == .null }

    /// The value as a `JSONValue` tree.
    var value: JSONValue {
        let node = nodes[index]
        switch node.kind {
        case .null: return .null
        case .bool: return .bool(node.flag)
        case .integer: return .integer(Int64(bitPattern: node.bits))
        case .unsigned: return .unsigned(node.bits)
        case .double: return .double(Double(bitPattern: node.bits))
        case .string: return string.map(JSONValue.string) ?? .unreadable
        case .unreadable: return .unreadable
        case .array: return .array(JSONArrayView(view: self).map(\.value))
        case .object:
            var object = JSONObject()
            object.isValid = node.flag
            JSONObjectView(view: self).forEveryMember { name, value in
                object.keys.append(name.string ?? "")
                object.values.append(value.value)
            }
            return .object(object)
        }
    }
}

/// An object of a `JSONTape`: members found by name, compared as bytes. A repeated name reads as
/// its first value, as with JSONDecoder.
struct JSONObjectView {
    let view: JSONView

    /// The member's value unless it is absent or null: what `decodeIfPresent` treats as present.
    func present(_ name: StaticString) -> JSONView? {
        var found: JSONView?
        forEachMember { key, value in
            guard key.isString(name) else { return true }
            found = value
            return false
        }
        guard let found, !found.isNull else { return nil }
        return found
    }

    /// Calls `body` with each member's name and value, in order, until it returns false.
    func forEachMember(_ body: (JSONView, JSONView) -> Bool) {
        let count = Int(view.nodes[view.index].first)
        var position = view.index + 1
        for _ in 0 ..< count {
            let key = JSONView(nodes: view.nodes, bytes: view.bytes, index: position)
            let value = JSONView(nodes: view.nodes, bytes: view.bytes, index: position + 1)
            guard body(key, value) else { return }
            position = value.next
        }
    }

    /// Calls `body` with each member's name and value, in order.
    func forEveryMember(_ body: (JSONView, JSONView) -> Void) {
        forEachMember { key, value -> Bool in
            body(key, value)
            return true
        }
    }
}

/// An array of a `JSONTape`: its elements in order.
struct JSONArrayView: Sequence {
    let view: JSONView

    /// How many elements there are.
    var count: Int { Int(view.nodes[view.index].first) }

    struct Iterator: IteratorProtocol {
        let view: JSONView
        var remaining: Int
        var position: Int

        mutating func next() -> JSONView? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let element = JSONView(nodes: view.nodes, bytes: view.bytes, index: position)
            position = element.next
            return element
        }
    }

    func makeIterator() -> Iterator { Iterator(view: view, remaining: count, position: view.index + 1) }

    var underestimatedCount: Int { count }
}
