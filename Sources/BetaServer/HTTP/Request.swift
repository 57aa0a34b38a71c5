/// A request as handlers see it: validated head, routing results, client identity and body.
public struct Request: Sendable {
    /// The method token.
    public var method: HTTPMethod
    /// The request-target exactly as received.
    public var target: String
    /// The percent-encoded path of the target (without query).
    public var path: String
    /// The raw query string after `?`, if any.
    public var query: String?
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// Values captured by the route pattern, e.g. `:id` or `*path`, percent-decoded.
    public var parameters = RouteParameters()
    /// The connecting peer's address (the proxy's, when behind one).
    public var peerAddress: String
    /// The client address: the peer, or from `X-Forwarded-For` when the peer is a trusted proxy.
    public var clientAddress: String
    /// `http` or `https`; from `X-Forwarded-Proto` only when the peer is a trusted proxy.
    public var scheme: String
    /// The host the client addressed (`X-Forwarded-Host` from a trusted proxy, else `Host`).
    public var host: String?
    /// The request body.
    public var body: RequestBody
    /// True when the body was larger than the route's limit and only its first `bodyLimit` bytes
    /// are in `body` (routes with `RouteOptions.OversizedBody.truncate`).
    public var bodyExceededLimit = false

    /// Creates a request; the engine builds these, tests may too.
    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = [:],
                peerAddress: String = "127.0.0.1", body: RequestBody = .empty) {
        self.method = method
        self.target = target
        let absolute = Request.absoluteForm(target)
        // An absolute-form target without a path means "/".
        let rest = absolute.map { $0.pathAndQuery.first == "/" ? $0.pathAndQuery : "/" + $0.pathAndQuery } ?? Substring(target)
        let (path, query) = Request.split(rest)
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.peerAddress = peerAddress
        self.clientAddress = peerAddress
        self.scheme = "http"
        // RFC 9112 §3.2.2: an absolute-form target's authority replaces the Host header.
        self.host = absolute.flatMap { Request.host(ofAuthority: $0.authority) } ?? headers["Host"]
        self.body = body
    }

    /// The origin clients used, e.g. `https://beta.example.com`, for building absolute links.
    public var baseURL: String { "\(scheme)://\(host ?? "localhost")" }

    /// The decoded value of query parameter `name`, if present.
    public func queryValue(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = PercentDecoding.decode(String(parts[0]), plusAsSpace: true)
            if key == name {
                return parts.count > 1 ? PercentDecoding.decode(String(parts[1]), plusAsSpace: true) : ""
            }
        }
        return nil
    }

    /// An absolute-form target such as `http://user@beta.example.com:8080/t/x?y` cut into its
    /// authority and the path and query after it; nil for the other forms.
    static func absoluteForm(_ target: String) -> (authority: Substring, pathAndQuery: Substring)? {
        guard target.utf8.first != UInt8(ascii: "/"), HeadSemantics.hasHTTPScheme(target),
              let colon = target.firstIndex(of: ":") else { return nil }
        let afterScheme = target[target.index(after: colon)...].dropFirst(2)
        let end = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        return (afterScheme[..<end], afterScheme[end...])
    }

    /// The host (and port) of an authority, without any user information; nil when empty.
    static func host(ofAuthority authority: Substring) -> String? {
        var host = authority
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        return host.isEmpty ? nil : String(host)
    }

    /// The path and the query (without its "?").
    static func split(_ rest: Substring) -> (String, String?) {
        if let question = rest.firstIndex(of: "?") {
            return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
        }
        return (String(rest), nil)
    }
}
