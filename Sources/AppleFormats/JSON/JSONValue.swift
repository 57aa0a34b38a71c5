/// A parsed JSON value (RFC 8259), for readers that need speed more than `Codable`: crash reports
/// are read once each, on the server as they arrive, and JSONDecoder's generic machinery costs
/// several times the parse itself.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in Int64.
    case integer(Int64)
    /// A number written without fraction or exponent above Int64.max that fits in UInt64.
    case unsigned(UInt64)
    /// Any other number.
    case double(Double)
    case string(String)
    /// A value that parses but reads as no value of any type, as with JSONDecoder: a string whose
    /// content is not a valid string (raw control characters, a malformed escape, not UTF-8) or a
    /// number written with leading zeros.
    case unreadable
    case array([JSONValue])
    case object(JSONObject)

    /// The object, when this is one whose member names are all valid strings (JSONDecoder cannot
    /// read an object with a damaged name as a keyed container).
    var object: JSONObject? {
        if case let .object(object) = self, object.isValid { return object }
        return nil
    }

    /// The elements, when this is an array.
    var array: [JSONValue]? {
        if case let .array(array) = self { return array }
        return nil
    }

    /// The text, when this is a string.
    var string: String? {
        if case let .string(string) = self { return string }
        return nil
    }

    /// The value, when this is `true` or `false`.
    var bool: Bool? {
        if case let .bool(bool) = self { return bool }
        return nil
    }

    /// The number as an Int64 when it is a whole number in range (as JSONDecoder reads integers).
    var int64: Int64? {
        switch self {
        case let .integer(value): return value
        case let .double(value): return value.rounded(.towardZero) == value && value >= -9.223372036854775808e18 && value < 9.223372036854775808e18 ? Int64(value) : nil
        default: return nil
        }
    }

    /// The number as an Int when it is a whole number in range.
    var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// The number as a UInt64 when it is a whole non-negative number in range.
    var uint64: UInt64? {
        switch self {
        case let .integer(value): return value >= 0 ? UInt64(value) : nil
        case let .unsigned(value): return value
        case let .double(value): return value.rounded(.towardZero) == value && value >= 0 && value < 1.8446744073709552e19 ? UInt64(value) : nil
        default: return nil
        }
    }

    /// A string, or a whole number written where a string was expected (`"bug_type": 309`).
    var lenientString: String? {
        if case let .string(string) = self { return string }
        return int64.map(String.init)
    }

    /// Whether this is `null`.
    var isNull: Bool { self == .null }
}

/// A JSON object: its members in order. A repeated key reads as its first value, as with
/// JSONDecoder; objects in reports have a few dozen keys at most, so lookups are a linear search.
struct JSONObject: Sendable, Equatable {
    var keys: [String] = []
    var values: [JSONValue] = []
    /// False when a member name is not a valid string.
    var isValid = true

    subscript(key: String) -> JSONValue? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values[index]
    }

    /// The member's value unless it is absent or null: what `decodeIfPresent` treats as present.
    func present(_ key: String) -> JSONValue? {
        guard let value = self[key], !value.isNull else { return nil }
        return value
    }
}
