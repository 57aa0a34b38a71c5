/// Why a `.mobileconfig` could not be read.
public enum ConfigurationProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than any profile.
    case tooLarge(size: Int, limit: Int)
    /// The signed envelope could not be read.
    case envelope(CMSSignedPlistError)
    /// The unsigned file is not a property list.
    case unreadablePlist(PlistError)
    /// The plist is not a dictionary.
    case notADictionary(found: String)
    /// A key Apple requires is missing.
    case missingKey(String, in: String)
    /// A key has a value of the wrong kind.
    case wrongType(key: String, in: String, expected: String, found: String)
    /// A key's value has the wrong shape.
    case invalidValue(key: String, value: String, expected: String)
    /// More payloads than any real profile.
    case tooManyPayloads(count: Int, limit: Int)

    static let fix = "export or generate the profile again"

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .tooLarge(size, limit):
            return "the configuration profile is \(size) bytes, more than the \(limit)-byte limit; it is not a .mobileconfig"
        case let .envelope(error):
            return "the signed configuration profile is not readable: \(error); \(Self.fix)"
        case let .unreadablePlist(error):
            return "the configuration profile is not a readable property list: \(error); \(Self.fix)"
        case let .notADictionary(found):
            return "the configuration profile is \(found), not a dictionary; \(Self.fix)"
        case let .missingKey(key, place):
            return "\(place) has no \(key), which every configuration profile needs; \(Self.fix)"
        case let .wrongType(key, place, expected, found):
            return "\(place)'s \(key) is \(found) instead of \(expected); \(Self.fix)"
        case let .invalidValue(key, value, expected):
            return "the configuration profile's \(key) \"\(value.prefix(60))\" is not \(expected); \(Self.fix)"
        case let .tooManyPayloads(count, limit):
            return "the configuration profile has \(count) payloads, more than the \(limit) betactl reads; it is not a real profile"
        }
    }
}
