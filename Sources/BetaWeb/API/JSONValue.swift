/// A JSON document built in code (the OpenAPI description, problem extensions), encoded with
/// sorted keys like every other response.
indirect enum JSONValue: Sendable, Equatable, Encodable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
                         ExpressibleByDictionaryLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements) { _, last in last }) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int64) { self = .int(value) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(values): try container.encode(values)
        case let .object(fields): try container.encode(fields)
        case .null: try container.encodeNil()
        }
    }

    /// The field `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case let .object(fields) = self else { return nil }
        return fields[key]
    }

    /// Sets field `key` of an object (a no-op on other values).
    mutating func set(_ key: String, _ value: JSONValue) {
        guard case var .object(fields) = self else { return }
        fields[key] = value
        self = .object(fields)
    }
}
