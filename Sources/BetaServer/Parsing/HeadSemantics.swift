/// Header-level rules that decide framing and connection handling (RFC 9112 §6, §9; RFC 9110 §7.2, §10.1.1).
enum HeadSemantics {
    static func validate(method: HTTPMethod, target: String, version: HTTPVersion,
                         headers: HTTPHeaders) throws(HTTPParseError) -> RequestHead {
        try validateTarget(target, method: method)
        let hosts = headers.values("Host")
        if hosts.count > 1 { throw .invalidHost }
        if let host = hosts.first {
            if !isValidHost(host) { throw .invalidHost }
        } else if version == .http11 {
            throw .missingHost
        }
        let framing = try framing(headers: headers, version: version)
        var keepAlive: Bool
        if version == .http11 {
            keepAlive = !headers.containsToken("Connection", "close")
        } else {
            keepAlive = headers.containsToken("Connection", "keep-alive")
        }
        var expectsContinue = false
        if let expect = headers["Expect"] {
            guard HTTPHeaders.namesEqual(expect, "100-continue") else { throw .unsupportedExpectation(expect) }
            // HTTP/1.0 clients cannot understand 100 (RFC 9110 §10.1.1); ignore it for them.
            expectsContinue = version == .http11
        }
        if case .chunked = framing, version == .http10 { keepAlive = false }
        return RequestHead(method: method, target: target, version: version, headers: headers,
                           framing: framing, keepAlive: keepAlive, expectsContinue: expectsContinue)
    }

    static func framing(headers: HTTPHeaders, version: HTTPVersion) throws(HTTPParseError) -> BodyFraming {
        let lengths = headers.values("Content-Length")
        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        if hasTransferEncoding {
            if !lengths.isEmpty { throw .contentLengthWithTransferEncoding }
            if version == .http10 { throw .transferEncodingInHTTP10 }
            let codings = headers.listElements("Transfer-Encoding")
            guard let last = codings.last else { throw .invalidTransferEncoding }
            for coding in codings where !HTTPHeaders.namesEqual(String(coding), "chunked") {
                throw .unsupportedTransferEncoding(String(coding))
            }
            guard codings.count == 1, HTTPHeaders.namesEqual(String(last), "chunked") else {
                throw .invalidTransferEncoding
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        guard lengths.count == 1 else { throw .duplicateContentLength }
        let text = lengths[0]
        if text.utf8.contains(UInt8(ascii: ",")) { throw .duplicateContentLength }
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let length = Int64(text) else { throw .invalidContentLength }
        return length == 0 ? .none : .length(length)
    }

    static func validateTarget(_ target: String, method: HTTPMethod) throws(HTTPParseError) {
        let bytes = target.utf8
        guard let first = bytes.first else { throw .invalidTarget }
        if first == UInt8(ascii: "/") { return }
        if target == "*" && method == .options { return }
        if hasHTTPScheme(target) {  // absolute-form (RFC 9112 §3.2.2): its authority becomes the host
            guard let host = Request.absoluteForm(target).flatMap({ Request.host(ofAuthority: $0.authority) }), isValidHost(host) else {
                throw .invalidTarget
            }
            return
        }
        throw .invalidTarget
    }

    static func hasHTTPScheme(_ target: String) -> Bool {
        let lower = target.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static func isValidHost(_ host: String) -> Bool {
        if host.isEmpty { return true }  // allowed when the target has no authority
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "#"),
                 ASCII.space, ASCII.tab:
                return false
            default:
                if !ASCII.isVisible(byte) { return false }
            }
        }
        return true
    }
}
