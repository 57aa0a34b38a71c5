#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A typed property-list value.
///
/// Property lists are read and written by our own XML and binary readers and writers
/// (see `PlistValue+Serialization.swift`), so no untyped object tree exists anywhere.
public enum PlistValue: Hashable, Sendable {
    /// `<string>`.
    case string(String)
    /// `<integer>`.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data([UInt8])
    /// `<array>`.
    case array([PlistValue])
    /// `<dict>`.
    case dictionary([String: PlistValue])

    /// The string, if this is one.
    public var string: String? { if case let .string(value) = self { value } else { nil } }
    /// The boolean, if this is one.
    public var bool: Bool? { if case let .bool(value) = self { value } else { nil } }
    /// The integer, if this is one.
    public var integer: Int64? { if case let .integer(value) = self { value } else { nil } }
    /// The date, if this is one.
    public var date: Date? { if case let .date(value) = self { value } else { nil } }
    /// The data, if this is data.
    public var data: [UInt8]? { if case let .data(value) = self { value } else { nil } }
    /// The elements, if this is an array.
    public var array: [PlistValue]? { if case let .array(value) = self { value } else { nil } }
    /// The entries, if this is a dictionary.
    public var dictionary: [String: PlistValue]? { if case let .dictionary(value) = self { value } else { nil } }

    /// The elements of an array of strings; nil when this is not an array or an element is not a string.
    public var stringArray: [String]? {
        guard let array else { return nil }
        var strings: [String] = []
        for element in array {
            guard let text = element.string else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The value for `key` when this is a dictionary.
    public subscript(key: String) -> PlistValue? {
        dictionary?[key]
    }

    /// A short name of the kind of value, for messages ("a string", "an array").
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .bool: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }

    /// A compact, deterministic rendering for messages: strings quoted, arrays in brackets.
    public var displayText: String {
        switch self {
        case let .string(value): return "\"\(value)\""
        case let .integer(value): return String(value)
        case let .real(value): return String(value)
        case let .bool(value): return value ? "true" : "false"
        case let .date(value): return value.formatted(Date.ISO8601FormatStyle())
        case let .data(value): return "<\(value.count) bytes>"
        case let .array(values): return "[" + values.map(\.displayText).joined(separator: ", ") + "]"
        case let .dictionary(entries):
            return "{" + entries.keys.sorted().map { "\($0): \(entries[$0]?.displayText ?? "")" }.joined(separator: ", ") + "}"
        }
    }
}
