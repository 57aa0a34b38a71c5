/// An error that maps to a specific HTTP response; throw it from handlers.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// A message for the client (and log) naming the problem and the fix.
    public var message: String
    /// Extra response headers, e.g. `Allow` for 405 or `WWW-Authenticate` for 401.
    public var headers: HTTPHeaders

    /// Creates an error answered with `status` and `message`.
    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message ?? status.reason
        self.headers = headers
    }

    /// `status: message`
    public var description: String { "\(status): \(message)" }
}

/// Domain errors adopt this to choose their own HTTP status when they escape a handler.
public protocol HTTPResponseError: Error {
    /// The status to answer with.
    var httpStatus: HTTPStatus { get }
}
