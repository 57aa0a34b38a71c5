/// A value a template renders: what page models convert to before rendering.
///
/// A closed, typed tree (no `Any`), so a template sees exactly what the model chose to expose and
/// the whole tree can cross concurrency domains. Sections treat `false`, `null` and an empty list
/// as false; everything else, including an empty string and `0`, is true.
public enum MustacheValue: Hashable, Sendable {
    /// Text; `{{name}}` prints it HTML-escaped, `{{{name}}}` as it is.
    case string(String)
    /// A boolean: a section shows its body for `true` and hides it for `false`.
    case bool(Bool)
    /// An integer, printed in decimal.
    case int(Int)
    /// A list: a section renders its body once per element, with the element as the context.
    case list([MustacheValue])
    /// Named fields: a section pushes the object so its fields resolve by name inside it.
    case object([String: MustacheValue])
    /// Nothing: prints as nothing and hides a section.
    case null

    /// Whether a section shows its body (and an inverted section hides its body) for this value.
    public var isTruthy: Bool {
        switch self {
        case let .bool(value): value
        case .null: false
        case let .list(elements): !elements.isEmpty
        case .string, .int, .object: true
        }
    }

    /// The field `key` when this is an object.
    public subscript(key: String) -> MustacheValue? {
        guard case let .object(fields) = self else { return nil }
        return fields[key]
    }

    /// A short name of the kind of value, for messages ("a list", "an object").
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .bool: "a boolean"
        case .int: "an integer"
        case .list: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// A string value from a literal, e.g. `"Ann"`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    /// An integer value from a literal.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    /// A boolean value from `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    /// A list from an array literal.
    public init(arrayLiteral elements: MustacheValue...) {
        self = .list(elements)
    }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// An object from a dictionary literal; when a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    /// `null` from `nil`.
    public init(nilLiteral: ()) {
        self = .null
    }
}
