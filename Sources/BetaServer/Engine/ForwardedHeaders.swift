/// Applies `X-Forwarded-Proto`, `-For` and `-Host`, but only when the peer is a trusted proxy:
/// from anyone else they are client-controlled and ignored.
enum ForwardedHeaders {
    static func apply(to request: inout Request, trusted: TrustedProxies) {
        guard !trusted.isEmpty, trusted.contains(request.peerAddress) else { return }
        if let proto = request.headers.listElements("X-Forwarded-Proto").first {
            let lowered = proto.lowercased()
            if lowered == "https" || lowered == "http" { request.scheme = lowered }
        }
        if let host = request.headers.listElements("X-Forwarded-Host").first,
           HeadSemantics.isValidHost(String(host)), !host.isEmpty {
            request.host = String(host)
        }
        let chain = request.headers.listElements("X-Forwarded-For").map(String.init)
        // Walk from the nearest hop: the first address that is not one of our proxies is the client.
        for address in chain.reversed() {
            guard IPAddress(address) != nil else { break }
            request.clientAddress = address
            if !trusted.contains(address) { break }
        }
    }
}
