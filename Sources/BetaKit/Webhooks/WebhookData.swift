/// A JSON value written in a fixed member order, for webhook payloads (which are signed, so their
/// bytes must be exactly what is stored).
public indirect enum WebhookData: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int64)
    /// A boolean.
    case bool(Bool)
    /// null.
    case null
    /// An array.
    case array([WebhookData])
    /// An object whose members keep their order.
    case object([(String, WebhookData)])

    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// A string, or null.
    public static func optional(_ value: String?) -> WebhookData { value.map { .string($0) } ?? .null }
    /// An integer, or null.
    public static func optional(_ value: Int64?) -> WebhookData { value.map { .int($0) } ?? .null }

    /// Equal when their JSON text is.
    public static func == (lhs: WebhookData, rhs: WebhookData) -> Bool { lhs.json == rhs.json }

    /// The member `key` of an object.
    public subscript(key: String) -> WebhookData? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// Compact JSON text.
    public var json: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case let .string(text): Self.quote(text, into: &out)
        case let .int(value): out += String(value)
        case let .bool(value): out += value ? "true" : "false"
        case .null: out += "null"
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
