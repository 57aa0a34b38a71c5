import Foundation

/// Why bytes could not be read as a property list.
public struct PlistError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String

    /// Creates an error with a full sentence.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

extension PlistValue {
    /// Parses an XML, binary or OpenStep property list. This is the Foundation boundary:
    /// the untyped tree is converted at once and never escapes.
    public init(parsing bytes: [UInt8]) throws(PlistError) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let kind = bytes.starts(with: Array("bplist".utf8)) ? "binary" : "XML"
            throw PlistError("the \(kind) property list (\(bytes.count) bytes) cannot be parsed: \(error.localizedDescription)")
        }
        self = try Self(foundationObject: object)
    }

    private init(foundationObject object: Any) throws(PlistError) {
        switch object {
        case let text as String:
            self = .string(text)
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data([UInt8](data))
        case let array as [Any]:
            var values: [PlistValue] = []
            values.reserveCapacity(array.count)
            for element in array { values.append(try Self(foundationObject: element)) }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: PlistValue] = [:]
            for (key, element) in dictionary { values[key] = try Self(foundationObject: element) }
            self = .dictionary(values)
        case let number as NSNumber:
            // Booleans arrive as Bool on Linux and as a boolean NSNumber on Darwin; both report "c".
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" {
                self = .bool(number.boolValue)
            } else if type == "d" || type == "f" {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.int64Value)
            }
        default:
            throw PlistError("the property list holds a value of unsupported type \(type(of: object))")
        }
    }

    /// The value as the object tree `PropertyListSerialization` writes.
    var foundationObject: Any {
        switch self {
        case let .string(value): value
        case let .integer(value): NSNumber(value: value)
        case let .real(value): NSNumber(value: value)
        case let .bool(value): value
        case let .date(value): value
        case let .data(value): Data(value)
        case let .array(values): values.map(\.foundationObject)
        case let .dictionary(entries): entries.mapValues(\.foundationObject)
        }
    }

    /// Serializes as an XML property list with keys sorted, the form Apple's tools write.
    public func xmlBytes() throws(PlistError) -> [UInt8] {
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .xml, options: 0)
            return [UInt8](data)
        } catch {
            throw PlistError("cannot write the property list: \(error.localizedDescription)")
        }
    }

    /// Serializes as a binary property list.
    public func binaryBytes() throws(PlistError) -> [UInt8] {
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .binary, options: 0)
            return [UInt8](data)
        } catch {
            throw PlistError("cannot write the property list: \(error.localizedDescription)")
        }
    }
}
