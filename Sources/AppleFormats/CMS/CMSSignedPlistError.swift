/// Why signed plist bytes could not be read.
public enum CMSSignedPlistError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a CMS envelope at all.
    case notSigned(String)
    /// The envelope is truncated or corrupt.
    case damagedEnvelope(DERError)
    /// The envelope signs something other than data.
    case wrongContentType(String)
    /// The envelope carries no content (a detached signature).
    case noContent
    /// The content is not a property list.
    case unreadablePlist(PlistError)

    /// What is wrong, as a clause (callers add the file and the fix).
    public var description: String {
        switch self {
        case let .notSigned(reason): "not a CMS signed envelope: \(reason)"
        case let .damagedEnvelope(error): "the CMS envelope is damaged: \(error)"
        case let .wrongContentType(type): "the CMS envelope holds content of type \(type), not data"
        case .noContent: "the CMS envelope carries no content (a detached signature)"
        case let .unreadablePlist(error): "the signed content is not a readable property list: \(error)"
        }
    }
}
