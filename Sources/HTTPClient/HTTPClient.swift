// HTTPClient: a generic blocking HTTPS client over the system's libcurl (CCurl, loaded on first use),
// with retries, pinned addresses, no redirects and capped answers. It may import CCurl, PosixIO
// (sleep, clock) and the C library for resolving addresses (NetworkAddress), nothing of the
// application that uses it.

import CCurl

/// A blocking HTTPS client over the system's libcurl (loaded on first use).
///
/// Each `send` is one transfer on its own handle, so a client may be shared between threads; it
/// blocks the calling thread, so callers on an event loop hand it to a blocking pool. Responses
/// with any status are returned; only a request that got no response throws. `send(_:retrying:)`
/// adds retries with backoff for 429 and 5xx answers, honouring `Retry-After`.
public struct HTTPClient: Sendable {
    /// How requests are made.
    public struct Configuration: Sendable {
        /// A PEM file of CA certificates to trust instead of the system's, or nil for the system's.
        public var caFile: String?
        /// The whole transfer's limit, seconds.
        public var timeout: Double
        /// The connection's limit, seconds.
        public var connectTimeout: Double
        /// The largest body accepted.
        public var maximumResponseBytes: Int
        /// When true, a longer body is cut at `maximumResponseBytes` and the response returned;
        /// when false (the default) a longer body throws `responseTooLarge`.
        public var truncatesLongResponses: Bool
        /// When true, only `http` and `https` may be spoken and no proxy from the environment is
        /// used, so a request goes exactly where its URL (or its pinned address) says. Redirects
        /// are never followed, whatever this says.
        public var directHTTPOnly: Bool

        /// The defaults: the system's CAs, 60 s per transfer, 15 s to connect, 32 MiB bodies.
        public init(caFile: String? = nil, timeout: Double = 60, connectTimeout: Double = 15, maximumResponseBytes: Int = 32 << 20,
                    truncatesLongResponses: Bool = false, directHTTPOnly: Bool = false) {
            self.caFile = caFile
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maximumResponseBytes = maximumResponseBytes
            self.truncatesLongResponses = truncatesLongResponses
            self.directHTTPOnly = directHTTPOnly
        }
    }

    /// This client's configuration.
    public let configuration: Configuration

    /// A client.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Makes one request and returns the response, whatever its status.
    public func send(_ request: HTTPRequest) throws(HTTPClientError) -> HTTPResponse {
        if let reason = CurlLibrary.loadError { throw HTTPClientError.libraryUnavailable(reason) }
        let host = Self.host(of: request.url)
        guard let host else { throw HTTPClientError.invalidURL(request.url) }
        guard let handle = bk_curl_easy_new() else { throw HTTPClientError.network(host: host, detail: "libcurl could not make a handle") }
        defer { bk_curl_easy_free(handle) }
        var headerList: UnsafeMutablePointer<bk_curl_slist>?
        defer { if let headerList { bk_curl_list_free(headerList) } }
        for field in request.headers {
            guard let grown = bk_curl_list_append(headerList, "\(field.name): \(field.value)") else {
                throw HTTPClientError.network(host: host, detail: "out of memory")
            }
            headerList = grown
        }
        if request.body != nil, !request.headers.contains(where: { $0.name.lowercased() == "expect" }),
           let grown = bk_curl_list_append(headerList, "Expect:") {
            headerList = grown // no "100-continue" round trip before the body
        }
        var resolveList: UnsafeMutablePointer<bk_curl_slist>?
        defer { if let resolveList { bk_curl_list_free(resolveList) } }
        if let address = request.connectAddress {
            guard let entry = Self.resolveEntry(url: request.url, address: address), let list = bk_curl_list_append(nil, entry) else {
                throw HTTPClientError.invalidURL(request.url)
            }
            resolveList = list
        }
        var body = bk_curl_buffer(bytes: nil, length: 0, capacity: 0, limit: configuration.maximumResponseBytes, overflowed: 0,
                                  truncates: configuration.truncatesLongResponses ? 1 : 0)
        var headers = bk_curl_buffer(bytes: nil, length: 0, capacity: 0, limit: 256 << 10, overflowed: 0, truncates: 0)
        defer {
            bk_curl_buffer_free(&body)
            bk_curl_buffer_free(&headers)
        }
        var errorText = [CChar](repeating: 0, count: 256)
        let payload = request.body ?? []
        let code: Int32 = errorText.withUnsafeMutableBufferPointer { errorBuffer in
            payload.withUnsafeBytes { bodyBytes in
                withUnsafeMutablePointer(to: &body) { bodyPointer in
                    withUnsafeMutablePointer(to: &headers) { headersPointer in
                        var result = bk_curl_set_string(handle, BK_CURLOPT_URL, request.url)
                        if result == 0 { result = bk_curl_set_long(handle, BK_CURLOPT_NOSIGNAL, 1) }
                        if result == 0 { result = bk_curl_set_pointer(handle, BK_CURLOPT_ERRORBUFFER, errorBuffer.baseAddress) }
                        if result == 0 { result = bk_curl_set_long(handle, BK_CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.timeout)) }
                        if result == 0 { result = bk_curl_set_long(handle, BK_CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout)) }
                        if result == 0, let caFile = configuration.caFile { result = bk_curl_set_string(handle, BK_CURLOPT_CAINFO, caFile) }
                        if result == 0 { result = bk_curl_set_pointer(handle, BK_CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)) }
                        if result == 0 { result = bk_curl_set_long(handle, BK_CURLOPT_FOLLOWLOCATION, 0) }
                        if result == 0, let resolveList { result = bk_curl_set_pointer(handle, BK_CURLOPT_RESOLVE, UnsafeMutableRawPointer(resolveList)) }
                        if result == 0, configuration.directHTTPOnly {
                            result = bk_curl_set_long(handle, BK_CURLOPT_PROTOCOLS, Int(BK_CURLPROTO_HTTP_HTTPS))
                            if result == 0 { result = bk_curl_set_string(handle, BK_CURLOPT_PROXY, "") }
                        }
                        if result == 0, request.body != nil {
                            // An empty body still needs a valid pointer, or libcurl reads POSTFIELDS as a string.
                            let start = bodyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                            result = bk_curl_set_body(handle, start, Int64(payload.count))
                        }
                        if result == 0, request.method != "GET" || request.body != nil {
                            result = bk_curl_set_string(handle, BK_CURLOPT_CUSTOMREQUEST, request.method)
                        }
                        if result == 0 { result = bk_curl_collect_into(handle, bodyPointer, headersPointer) }
                        if result == 0 { result = bk_curl_perform(handle) }
                        return result
                    }
                }
            }
        }
        let truncated = code == 23 && body.overflowed != 0 && configuration.truncatesLongResponses
        guard code == 0 || truncated else {
            var detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if detail.isEmpty, let text = bk_curl_error_text(code) { detail = String(cString: text) }
            throw HTTPClientError.from(code: code, detail: detail, host: host, timeout: configuration.timeout,
                                       limit: configuration.maximumResponseBytes, overflowed: body.overflowed != 0)
        }
        let status = Int(bk_curl_response_code(handle))
        return HTTPResponse(status: status, headers: HTTPResponse.headerFields(Self.bytes(of: headers)), body: Self.bytes(of: body))
    }

    /// libcurl's `CURLOPT_RESOLVE` entry `host:port:address` that pins the URL's host to `address`.
    static func resolveEntry(url: String, address: String) -> String? {
        guard let authority = host(of: url) else { return nil }
        let secure = url.lowercased().hasPrefix("https://")
        var name = authority, port = secure ? "443" : "80"
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            name = String(authority[authority.index(after: authority.startIndex) ..< close])
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") { port = String(rest.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            name = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        }
        guard !name.isEmpty, !port.isEmpty, port.allSatisfy(\.isNumber),
              address.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
        let hostPart = name.contains(":") ? "[\(name)]" : name
        let addressPart = address.contains(":") ? "[\(address)]" : address
        return "\(hostPart):\(port):\(addressPart)"
    }

    static func bytes(of buffer: bk_curl_buffer) -> [UInt8] {
        guard let start = buffer.bytes, buffer.length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: buffer.length))
    }

    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds, 86_400) * 1000)
    }

    /// The host (and port) of an absolute http(s) URL, or nil when it is not one.
    static func host(of url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        let rest = url.drop { $0 != ":" }.dropFirst(3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains(" ") else { return nil }
        return String(authority)
    }
}
