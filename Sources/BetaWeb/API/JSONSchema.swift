/// JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it) for the API's documents, written in code
/// next to the operations so the description cannot drift from the routes.
indirect enum JSONSchema: Sendable {
    /// A property of an object schema.
    struct Property: Sendable {
        var name: String
        var schema: JSONSchema
        var isRequired: Bool
        var description: String?

        /// A required property.
        static func required(_ name: String, _ schema: JSONSchema, _ description: String? = nil) -> Property {
            Property(name: name, schema: schema, isRequired: true, description: description)
        }

        /// A property that may be absent.
        static func optional(_ name: String, _ schema: JSONSchema, _ description: String? = nil) -> Property {
            Property(name: name, schema: schema, isRequired: false, description: description)
        }
    }

    case object([Property], description: String? = nil, additional: JSONSchema? = nil)
    case array(JSONSchema, description: String? = nil)
    case string(description: String? = nil, format: String? = nil, values: [String]? = nil, pattern: String? = nil)
    case integer(description: String? = nil, minimum: Int64? = nil)
    case boolean(description: String? = nil)
    case reference(String)
    /// Any JSON value (the open-ended parts of a document).
    case any(description: String? = nil)
    /// A file in a multipart form.
    case binary(description: String? = nil)
    /// One of several schemas.
    case oneOf([JSONSchema])
    /// No value at all (`additionalProperties: false`: an object with only the listed fields).
    case never

    /// A reference to `#/components/schemas/<name>`.
    static func ref(_ name: String) -> JSONSchema { .reference(name) }

    /// A plain string property's schema.
    static var text: JSONSchema { .string() }

    /// An ISO 8601 UTC timestamp, `YYYY-MM-DDTHH:MM:SSZ`.
    static var timestamp: JSONSchema { .string(format: "date-time") }

    /// A `YYYY-MM-DD` day.
    static var day: JSONSchema { .string(format: "date") }

    /// The schema as JSON.
    var json: JSONValue {
        switch self {
        case let .object(properties, description, additional):
            var out: [String: JSONValue] = ["type": "object"]
            var fields: [String: JSONValue] = [:]
            for property in properties {
                var schema = property.schema.json
                if let text = property.description, case .object = schema, schema["$ref"] == nil { schema.set("description", .string(text)) }
                fields[property.name] = schema
            }
            out["properties"] = .object(fields)
            let required = properties.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { out["required"] = .array(required) }
            if let additional { out["additionalProperties"] = additional.json }
            if let description { out["description"] = .string(description) }
            return .object(out)
        case let .array(items, description):
            var out: [String: JSONValue] = ["type": "array", "items": items.json]
            if let description { out["description"] = .string(description) }
            return .object(out)
        case let .string(description, format, values, pattern):
            var out: [String: JSONValue] = ["type": "string"]
            if let description { out["description"] = .string(description) }
            if let format { out["format"] = .string(format) }
            if let values { out["enum"] = .array(values.map(JSONValue.string)) }
            if let pattern { out["pattern"] = .string(pattern) }
            return .object(out)
        case let .integer(description, minimum):
            var out: [String: JSONValue] = ["type": "integer"]
            if let description { out["description"] = .string(description) }
            if let minimum { out["minimum"] = .int(minimum) }
            return .object(out)
        case let .boolean(description):
            var out: [String: JSONValue] = ["type": "boolean"]
            if let description { out["description"] = .string(description) }
            return .object(out)
        case let .reference(name):
            return ["$ref": .string("#/components/schemas/\(name)")]
        case let .any(description):
            return description.map { ["description": .string($0)] } ?? [:]
        case let .binary(description):
            var out: [String: JSONValue] = ["type": "string", "contentMediaType": "application/octet-stream"]
            if let description { out["description"] = .string(description) }
            return .object(out)
        case let .oneOf(schemas):
            return ["oneOf": .array(schemas.map(\.json))]
        case .never:
            return false
        }
    }
}
