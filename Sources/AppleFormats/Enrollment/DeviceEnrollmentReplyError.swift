/// Why a device's enrolment reply was refused.
public enum DeviceEnrollmentReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reply is larger than any real one.
    case tooLarge(size: Int, limit: Int)
    /// The CMS envelope or its plist could not be read.
    case envelope(CMSSignedPlistError)
    /// The signed plist is not a dictionary.
    case notADictionary(found: String)
    /// There is no UDID.
    case missingUDID(keys: [String])
    /// The UDID is not one of Apple's forms.
    case invalidUDID(DeviceIdentifierError)
    /// An attribute is not a string.
    case wrongType(key: String, found: String)
    /// An attribute is longer than devices send.
    case tooLong(key: String, length: Int, limit: Int)
    /// An attribute has a shape devices never send.
    case invalidValue(key: String, value: String, expected: String)

    static let fix = "have the device install the enrolment profile again so it posts a fresh reply"

    /// A sentence naming what is wrong and the fix.
    public var description: String {
        switch self {
        case let .tooLarge(size, limit):
            return "the enrolment reply is \(size) bytes, more than the \(limit) bytes a device sends; it is not a device's reply"
        case let .envelope(error):
            return "the enrolment reply is not readable: \(error); \(Self.fix)"
        case let .notADictionary(found):
            return "the enrolment reply's plist is \(found), not a dictionary of device attributes; \(Self.fix)"
        case let .missingUDID(keys):
            let shown = keys.isEmpty ? "no keys" : "only " + keys.prefix(8).joined(separator: ", ")
            return "the enrolment reply has no UDID (it has \(shown)); the Profile Service payload must ask for UDID in DeviceAttributes"
        case let .invalidUDID(error):
            return "the enrolment reply's UDID is invalid: \(error)"
        case let .wrongType(key, found):
            return "the enrolment reply's \(key) is \(found), not a string; \(Self.fix)"
        case let .tooLong(key, length, limit):
            return "the enrolment reply's \(key) is \(length) bytes, longer than the \(limit) a device sends; \(Self.fix)"
        case let .invalidValue(key, value, expected):
            return "the enrolment reply's \(key) \"\(value)\" is not \(expected); \(Self.fix)"
        }
    }
}
