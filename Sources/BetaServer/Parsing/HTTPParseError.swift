/// Why a request was rejected before it reached a handler.
///
/// Every case maps to the status the server answers with (always with
/// `Connection: close`), and its description names the offending rule so a
/// client developer can fix their request.
public enum HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request line exceeds the configured limit.
    case requestLineTooLong(limit: Int)
    /// The header section exceeds the configured size limit.
    case headerSectionTooLarge(limit: Int)
    /// More header fields than the configured limit.
    case tooManyHeaderFields(limit: Int)
    /// A CR not followed by LF.
    case bareCarriageReturn
    /// An LF not preceded by CR.
    case bareLineFeed
    /// The request line is not `method SP target SP version`.
    case malformedRequestLine
    /// The method is not a token.
    case invalidMethod
    /// The request-target has forbidden bytes or an unsupported form.
    case invalidTarget
    /// The version is not `HTTP/DIGIT.DIGIT`.
    case malformedVersion
    /// A syntactically valid version other than HTTP/1.x.
    case unsupportedVersion(String)
    /// A field line starting with whitespace (obsolete line folding).
    case obsoleteLineFolding
    /// A field name that is empty or not a token.
    case invalidHeaderName
    /// Whitespace between a field name and the colon.
    case whitespaceBeforeColon
    /// A field value containing control bytes.
    case invalidHeaderValue(name: String)
    /// HTTP/1.1 request without `Host`.
    case missingHost
    /// More than one `Host` field, or an invalid one.
    case invalidHost
    /// Both `Content-Length` and `Transfer-Encoding`.
    case contentLengthWithTransferEncoding
    /// Several `Content-Length` fields or a list value.
    case duplicateContentLength
    /// A `Content-Length` that is not a decimal number in range.
    case invalidContentLength
    /// A transfer coding this server does not decode.
    case unsupportedTransferEncoding(String)
    /// `Transfer-Encoding` whose final coding is not chunked, or chunked twice.
    case invalidTransferEncoding
    /// `Transfer-Encoding` in an HTTP/1.0 request.
    case transferEncodingInHTTP10
    /// A chunk-size line that is not hexadecimal or too large.
    case invalidChunkSize
    /// Chunk framing (CRLF after data, extensions, trailers) is malformed.
    case malformedChunk
    /// An `Expect` value other than `100-continue`.
    case unsupportedExpectation(String)

    /// The status the server answers with.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .headerSectionTooLarge, .tooManyHeaderFields: .requestHeaderFieldsTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferEncoding: .notImplemented
        case .unsupportedExpectation: .expectationFailed
        default: .badRequest
        }
    }

    /// What was wrong and how to fix it.
    public var description: String {
        switch self {
        case .requestLineTooLong(let limit):
            "request line longer than \(limit) bytes; shorten the URI (move data into the body)"
        case .headerSectionTooLarge(let limit):
            "header section larger than \(limit) bytes; send fewer or smaller header fields"
        case .tooManyHeaderFields(let limit):
            "more than \(limit) header fields; send fewer header fields"
        case .bareCarriageReturn: "CR not followed by LF; end every line with CRLF"
        case .bareLineFeed: "LF without CR; end every line with CRLF"
        case .malformedRequestLine: "request line must be 'METHOD SP target SP HTTP/1.1' with single spaces"
        case .invalidMethod: "method is not a valid token"
        case .invalidTarget: "request target must be an origin-form path starting with '/' (or an absolute http(s) URL with a host) using visible ASCII only"
        case .malformedVersion: "protocol version must be HTTP/DIGIT.DIGIT"
        case .unsupportedVersion(let version): "\(version) is not supported; use HTTP/1.1"
        case .obsoleteLineFolding: "obsolete line folding (field line starting with whitespace) is not accepted"
        case .invalidHeaderName: "header field name is empty or not a token"
        case .whitespaceBeforeColon: "whitespace between a header field name and ':' is not allowed"
        case .invalidHeaderValue(let name): "header field '\(name)' contains control characters"
        case .missingHost: "HTTP/1.1 requests must carry a Host header"
        case .invalidHost: "exactly one valid Host header is required"
        case .contentLengthWithTransferEncoding:
            "Content-Length and Transfer-Encoding must not both be sent; send one of them"
        case .duplicateContentLength: "Content-Length must appear once with a single value"
        case .invalidContentLength: "Content-Length must be a decimal number of bytes"
        case .unsupportedTransferEncoding(let coding): "transfer coding '\(coding)' is not supported; use chunked"
        case .invalidTransferEncoding: "Transfer-Encoding must end with a single 'chunked'"
        case .transferEncodingInHTTP10: "Transfer-Encoding is not allowed in HTTP/1.0 requests"
        case .invalidChunkSize: "chunk size must be hexadecimal and below 2^60"
        case .malformedChunk: "chunked body framing is malformed"
        case .unsupportedExpectation(let value): "Expect '\(value)' is not supported; only 100-continue is"
        }
    }
}
