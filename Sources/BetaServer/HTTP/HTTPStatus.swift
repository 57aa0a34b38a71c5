/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase sent on the status line.
    public let reason: String

    /// Creates a status; `reason` defaults to the standard phrase for known codes.
    public init(code: Int, reason: String? = nil) {
        self.code = code
        self.reason = reason ?? HTTPStatus.standardReason(code)
    }

    /// Whether a response with this status never carries content (1xx, 204, 304).
    public var forbidsBody: Bool { (100..<200).contains(code) || code == 204 || code == 304 }

    /// `code reason`, as on the status line.
    public var description: String { "\(code) \(reason)" }

    /// 100 Continue
    public static let `continue` = HTTPStatus(code: 100)
    /// 200 OK
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created
    public static let created = HTTPStatus(code: 201)
    /// 204 No Content
    public static let noContent = HTTPStatus(code: 204)
    /// 206 Partial Content
    public static let partialContent = HTTPStatus(code: 206)
    /// 301 Moved Permanently
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302 Found
    public static let found = HTTPStatus(code: 302)
    /// 304 Not Modified
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 410 Gone: it existed and was withdrawn on purpose.
    public static let gone = HTTPStatus(code: 410)
    /// 408 Request Timeout
    public static let requestTimeout = HTTPStatus(code: 408)
    /// 411 Length Required
    public static let lengthRequired = HTTPStatus(code: 411)
    /// 412 Precondition Failed
    public static let preconditionFailed = HTTPStatus(code: 412)
    /// 413 Content Too Large
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 414 URI Too Long
    public static let uriTooLong = HTTPStatus(code: 414)
    /// 416 Range Not Satisfiable
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// 417 Expectation Failed
    public static let expectationFailed = HTTPStatus(code: 417)
    /// 431 Request Header Fields Too Large
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented
    public static let notImplemented = HTTPStatus(code: 501)
    /// 503 Service Unavailable
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 505 HTTP Version Not Supported
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}
