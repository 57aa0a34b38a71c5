/// An HTTP request method (RFC 9110 §9), kept as its case-sensitive token.
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent, e.g. `GET`.
    public let rawValue: String

    /// Wraps a method token; the parser has already checked it is a valid token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let get = HTTPMethod("GET")
    /// `HEAD`
    public static let head = HTTPMethod("HEAD")
    /// `POST`
    public static let post = HTTPMethod("POST")
    /// `PUT`
    public static let put = HTTPMethod("PUT")
    /// `DELETE`
    public static let delete = HTTPMethod("DELETE")
    /// `PATCH`
    public static let patch = HTTPMethod("PATCH")
    /// `OPTIONS`
    public static let options = HTTPMethod("OPTIONS")

    /// The method token.
    public var description: String { rawValue }
}
