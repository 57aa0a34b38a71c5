/// An ordered list of header fields with ASCII case-insensitive lookup.
///
/// Order and duplicates are kept because they matter on the wire (RFC 9110 §5.3);
/// lookups compare names without allocating lowercased copies.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were received or added.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates headers from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// The first value of `name`, if present.
    public subscript(_ name: String) -> String? {
        for field in fields where HTTPHeaders.namesEqual(field.name, name) { return field.value }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.compactMap { HTTPHeaders.namesEqual($0.name, name) ? $0.value : nil }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The comma-separated list elements of every `name` field, trimmed, empty ones dropped.
    public func listElements(_ name: String) -> [Substring] {
        var result: [Substring] = []
        for value in values(name) {
            for element in value.split(separator: ",") {
                let trimmed = element.trimmingOWS()
                if !trimmed.isEmpty { result.append(trimmed) }
            }
        }
        return result
    }

    /// Whether the list header `name` contains `token` (ASCII case-insensitive).
    public func containsToken(_ name: String, _ token: String) -> Bool {
        listElements(name).contains { HTTPHeaders.namesEqual(String($0), token) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison, as header names and tokens require.
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x != y && ASCII.lowered(x) != ASCII.lowered(y) { return false }
            default: return false
            }
        }
    }
}

extension Substring {
    /// Drops leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3).
    func trimmingOWS() -> Substring {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start {
            let before = index(before: end)
            if self[before] == " " || self[before] == "\t" { end = before } else { break }
        }
        return self[start..<end]
    }
}
