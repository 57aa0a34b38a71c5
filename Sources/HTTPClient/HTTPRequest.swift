/// One HTTP request: method, absolute URL, header fields and an optional body.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, upper case (`GET`, `POST`, `DELETE`).
    public var method: String
    /// The absolute `https://` (or `http://`) URL, query included.
    public var url: String
    /// Header fields in order; names as they are sent.
    public var headers: [HTTPHeaderField]
    /// The body, or nil for none.
    public var body: [UInt8]?
    /// A numeric IP address to connect to instead of resolving the URL's host again (the URL's
    /// host still names the server for TLS and `Host`), so an address checked beforehand is the
    /// one used; nil resolves as usual.
    public var connectAddress: String?

    /// A request.
    public init(method: String, url: String, headers: [HTTPHeaderField] = [], body: [UInt8]? = nil, connectAddress: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectAddress = connectAddress
    }

    /// The URL's path and query, for logs (never the host's credentials, which URLs here never carry).
    public var pathAndQuery: String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let rest = url[url.index(colon, offsetBy: 3)...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        return rest[slash] == "?" ? "/" + rest[slash...] : String(rest[slash...])
    }
}
