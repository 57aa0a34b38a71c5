/// A response a handler returns: status, headers and body.
///
/// The engine adds `Date`, `Content-Length` / `Transfer-Encoding` and
/// `Connection`, and strips the body for HEAD requests.
public struct Response: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields set by the handler.
    public var headers: HTTPHeaders
    /// The body.
    public var body: ResponseBody
    /// False for responses that must never be compressed, such as pages that carry a secret together
    /// with reflected input (compression would leak the secret through the size: BREACH).
    public var allowsCompression = true
    /// Called once on the event loop when the response has been written out or the connection closed
    /// before that. Keep it short and non-blocking: hand real work to a `BlockingPool`.
    public var onFinish: (@Sendable (ResponseOutcome) -> Void)?

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A `text/html; charset=utf-8` response.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Array(html.utf8)))
    }

    /// A response with raw bytes of the given content type.
    public static func bytes(_ bytes: [UInt8], contentType: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .bytes(bytes))
    }

    /// A redirect to `location` (302 by default).
    public static func redirect(to location: String, status: HTTPStatus = .found) -> Response {
        Response(status: status, headers: ["Location": location])
    }
}

/// What follows the response head.
public enum ResponseBody: Sendable {
    /// No content.
    case empty
    /// Bytes in memory, sent with `Content-Length`.
    case bytes([UInt8])
    /// File regions and literal bytes (whole file, ranges, multipart), sent with `Content-Length` via sendfile.
    case file(FileBody)
    /// Produced incrementally and sent chunked; the closure writes through the writer with back-pressure.
    case stream(@Sendable (BodyWriter) async throws -> Void)

    /// The exact length when known up front.
    public var knownLength: Int64? {
        switch self {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let file): file.length
        case .stream: nil
        }
    }
}

/// How a response ended, reported to `Response.onFinish`.
public enum ResponseOutcome: Sendable, Equatable {
    /// Every byte of the head and body was handed to the operating system.
    case delivered
    /// The connection closed (client gone, timeout, shutdown) before the whole response was written.
    case abandoned
}
