/// Why ASN.1 (DER or BER) data could not be read. Every case names the byte offset.
public enum DERError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An element claims `claimed` content bytes at `offset` but only `available` remain.
    case truncated(offset: Int, claimed: Int, available: Int)
    /// The identifier or length octets at `offset` are malformed.
    case malformedHeader(offset: Int, String)
    /// An indefinite-length element starting at `offset` has no end-of-contents marker.
    case missingEndOfContents(offset: Int)
    /// Elements are nested deeper than the parser allows.
    case tooDeep(offset: Int, limit: Int)
    /// More elements than the parser allows.
    case tooManyElements(limit: Int)
    /// A different element was found where the structure requires `expected`.
    case unexpected(offset: Int, expected: String, found: String)
    /// The element at `offset` has the right tag but a value that cannot be decoded.
    case invalidValue(offset: Int, String)
    /// Bytes follow the top-level element.
    case trailingData(offset: Int, count: Int)

    /// A sentence naming the offset, the problem and what it usually means.
    public var description: String {
        switch self {
        case let .truncated(offset, claimed, available):
            return "the element at byte \(offset) claims \(claimed) bytes but only \(available) remain: the file is truncated; copy or download it again"
        case let .malformedHeader(offset, detail):
            return "malformed ASN.1 header at byte \(offset): \(detail); the file is corrupt"
        case let .missingEndOfContents(offset):
            return "the indefinite-length element at byte \(offset) never ends (no end-of-contents marker): the file is truncated or corrupt"
        case let .tooDeep(offset, limit):
            return "ASN.1 elements nest \(limit + 1) levels deep at byte \(offset), more than the \(limit) allowed; refusing to read further"
        case let .tooManyElements(limit):
            return "the data holds more than \(limit) ASN.1 elements; refusing to read further"
        case let .unexpected(offset, expected, found):
            return "expected \(expected) at byte \(offset) but found \(found)"
        case let .invalidValue(offset, detail):
            return "invalid value at byte \(offset): \(detail)"
        case let .trailingData(offset, count):
            return "\(count) unexpected bytes follow the data at byte \(offset)"
        }
    }
}
