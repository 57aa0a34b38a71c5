#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A property-list value encoded as the JSON value closest to it: strings, numbers, booleans,
/// arrays and objects as themselves, dates as ISO 8601 text, data as base64 text. Used for
/// entitlements and other plist content in `inspect --json`.
public struct PlistJSON: Encodable, Sendable, Equatable {
    /// The value.
    public var value: PlistValue

    /// Wraps `value`.
    public init(_ value: PlistValue) { self.value = value }

    /// Encodes the value as described above; a real that is not finite is written as text.
    public func encode(to encoder: any Encoder) throws {
        switch value {
        case let .string(text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case let .integer(number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case let .real(number):
            var container = encoder.singleValueContainer()
            if number.isFinite { try container.encode(number) } else { try container.encode(String(number)) }
        case let .bool(flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case let .date(date):
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        case let .data(bytes):
            var container = encoder.singleValueContainer()
            try container.encode(String(decoding: Base64.encode(bytes), as: UTF8.self))
        case let .array(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(PlistJSON(item)) }
        case let .dictionary(entries):
            var container = encoder.container(keyedBy: DynamicKey.self)
            for key in entries.keys.sorted() {
                if let item = entries[key] { try container.encode(PlistJSON(item), forKey: DynamicKey(key)) }
            }
        }
    }

    /// The entries of a dictionary, wrapped.
    public static func dictionary(_ entries: [String: PlistValue]) -> [String: PlistJSON] {
        entries.mapValues(PlistJSON.init)
    }
}

/// A coding key made from any string.
struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
