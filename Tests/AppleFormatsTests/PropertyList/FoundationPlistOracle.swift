import Foundation
@testable import AppleFormats

/// Foundation's `PropertyListSerialization` as an independent oracle for our own reader and
/// writer: tests compare what both make of the same bytes. (The betactl binary itself does
/// not link Foundation; test targets may.)
enum FoundationPlistOracle {
    struct Unsupported: Error { var type: String }

    static func parse(_ bytes: [UInt8]) throws -> PlistValue {
        try value(PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
    }

    static func value(_ object: Any) throws -> PlistValue {
        switch object {
        case let text as String: return .string(text)
        case let date as Date: return .date(date)
        case let data as Data: return .data([UInt8](data))
        case let array as [Any]: return .array(try array.map(value))
        case let dictionary as [String: Any]: return .dictionary(try dictionary.mapValues(value))
        case let number as NSNumber:
            // Booleans arrive as Bool on Linux and as a boolean NSNumber on Darwin; both report "c".
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .bool(number.boolValue) }
            if type == "d" || type == "f" { return .real(number.doubleValue) }
            return .integer(number.int64Value)
        default: throw Unsupported(type: "\(type(of: object))")
        }
    }

    static func object(_ value: PlistValue) -> Any {
        switch value {
        case let .string(text): text
        case let .integer(number): NSNumber(value: number)
        case let .real(number): NSNumber(value: number)
        case let .bool(flag): flag
        case let .date(date): date
        case let .data(bytes): Data(bytes)
        case let .array(elements): elements.map(object)
        case let .dictionary(entries): entries.mapValues(object)
        }
    }

    static func write(_ value: PlistValue, format: PropertyListSerialization.PropertyListFormat) throws -> [UInt8] {
        [UInt8](try PropertyListSerialization.data(fromPropertyList: object(value), format: format, options: 0))
    }
}
