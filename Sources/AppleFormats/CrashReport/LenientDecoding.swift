/// A field decoded leniently: absent, null or of an unexpected type reads as nil.
///
/// The wrappers below let the `.ips` models use synthesized decoding while staying lenient;
/// `KeyedDecodingContainer` overloads make an absent key a nil value rather than an error.
@propertyWrapper
struct Lenient<Value: Decodable>: Decodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        wrappedValue = try? decoder.singleValueContainer().decode(Value.self)
    }
}

/// A string, or a number written where a string was expected (`"bug_type": 309`).
@propertyWrapper
struct LenientString: Decodable {
    var wrappedValue: String?

    init(wrappedValue: String?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try? decoder.singleValueContainer()
        if let text = try? container?.decode(String.self) {
            wrappedValue = text
        } else if let number = try? container?.decode(Int64.self) {
            wrappedValue = String(number)
        }
    }
}

/// The decodable elements of an array; elements that fail to decode are dropped, and anything
/// that is not an array reads as empty.
@propertyWrapper
struct LenientArray<Element: Decodable>: Decodable {
    var wrappedValue: [Element]

    init(wrappedValue: [Element]) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        wrappedValue = []
        guard var array = try? decoder.unkeyedContainer() else { return }
        while !array.isAtEnd {
            if let element = try? array.decode(Element.self) {
                wrappedValue.append(element)
            } else if (try? array.decode(Skip.self)) == nil {
                break
            }
        }
    }
}

/// Like `LenientArray`, but nil when the key is absent.
@propertyWrapper
struct OptionalLenientArray<Element: Decodable>: Decodable {
    var wrappedValue: [Element]?

    init(wrappedValue: [Element]?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        wrappedValue = try LenientArray<Element>(from: decoder).wrappedValue
    }
}

/// Consumes one JSON value of any type.
private struct Skip: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension KeyedDecodingContainer {
    // Synthesized decoding calls these for wrapped properties: a missing key gives the empty value.
    func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        (try? decodeIfPresent(type, forKey: key)) ?? Lenient(wrappedValue: nil)
    }

    func decode(_ type: LenientString.Type, forKey key: Key) throws -> LenientString {
        (try? decodeIfPresent(type, forKey: key)) ?? LenientString(wrappedValue: nil)
    }

    func decode<Element>(_ type: LenientArray<Element>.Type, forKey key: Key) throws -> LenientArray<Element> {
        (try? decodeIfPresent(type, forKey: key)) ?? LenientArray(wrappedValue: [])
    }

    func decode<Element>(_ type: OptionalLenientArray<Element>.Type, forKey key: Key) throws -> OptionalLenientArray<Element> {
        (try? decodeIfPresent(type, forKey: key)) ?? OptionalLenientArray(wrappedValue: nil)
    }
}
