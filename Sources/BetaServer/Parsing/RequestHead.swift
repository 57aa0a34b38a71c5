/// How the request body is delimited (RFC 9112 §6.3).
public enum BodyFraming: Sendable, Equatable {
    /// No body.
    case none
    /// Exactly this many bytes.
    case length(Int64)
    /// Chunked transfer coding.
    case chunked
}

/// A parsed and validated request line plus header section.
public struct RequestHead: Sendable {
    /// The method token.
    public var method: HTTPMethod
    /// The request-target exactly as received.
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// How the body is delimited.
    public var framing: BodyFraming
    /// Whether the client allows the connection to stay open after this exchange.
    public var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue`.
    public var expectsContinue: Bool
}
