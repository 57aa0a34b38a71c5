#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 address and the range it falls in, for callers that must refuse to
/// reach inside their own network (server-side request forgery) on a URL someone else gave.
public struct NetworkAddress: Sendable, Equatable, CustomStringConvertible {
    /// The ranges an address can fall in.
    public enum Range: String, Sendable {
        /// Routable on the internet.
        case global
        /// 127.0.0.0/8, ::1.
        case loopback
        /// 169.254.0.0/16 (where cloud metadata services answer), fe80::/10.
        case linkLocal = "link-local"
        /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7.
        case `private`
        /// 0.0.0.0/8, ::, multicast, 240/4 and other ranges no public server uses.
        case reserved
    }

    /// The address as text (`192.0.2.1`, `2001:db8::1`).
    public let text: String
    /// The 4 or 16 bytes.
    public let bytes: [UInt8]

    /// Parses a numeric address; nil for anything else (a name included).
    public init?(_ text: String) {
        var four = in_addr(), sixteen = in6_addr()
        if inet_pton(AF_INET, text, &four) == 1 {
            bytes = withUnsafeBytes(of: &four) { Array($0) }
        } else if inet_pton(AF_INET6, text, &sixteen) == 1 {
            bytes = withUnsafeBytes(of: &sixteen) { Array($0) }
        } else {
            return nil
        }
        self.text = text
    }

    /// The address text.
    public var description: String { text }

    /// The range this address is in. IPv4 addresses mapped or translated into IPv6 count as the
    /// IPv4 address they carry.
    public var range: Range {
        if bytes.count == 4 { return Self.range(ipv4: bytes) }
        let b = bytes
        if b[0 ..< 10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.range(ipv4: Array(b[12 ..< 16])) } // ::ffff:a.b.c.d
        if b[0 ..< 12].allSatisfy({ $0 == 0 }) {
            if b[12 ..< 15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
            return b[12 ..< 16].allSatisfy({ $0 == 0 }) ? .reserved : Self.range(ipv4: Array(b[12 ..< 16])) // ::a.b.c.d (deprecated)
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B { return Self.range(ipv4: Array(b[12 ..< 16])) } // 64:ff9b::/96 NAT64
        if b[0] == 0x20 && b[1] == 0x02 { return Self.range(ipv4: Array(b[2 ..< 6])) } // 2002::/16 6to4
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }
        if b[0] & 0xFE == 0xFC { return .private }
        if b[0] == 0xFF { return .reserved } // multicast
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .private } // site-local (deprecated)
        return .global
    }

    static func range(ipv4 b: [UInt8]) -> Range {
        switch (b[0], b[1]) {
        case (127, _): return .loopback
        case (169, 254): return .linkLocal
        case (10, _), (192, 168): return .private
        case (172, let second) where (16 ... 31).contains(second): return .private
        case (100, let second) where (64 ... 127).contains(second): return .private
        case (0, _): return .reserved
        case (let first, _) where first >= 224: return .reserved // multicast, 240/4, broadcast
        case (192, 0) where b[2] == 0: return .reserved // IETF protocol assignments (192.0.0.0/24)
        case (198, let second) where second == 18 || second == 19: return .reserved // benchmarking
        default: return .global
        }
    }

    /// Whether the address is routable on the internet.
    public var isGlobal: Bool { range == .global }

    /// Every address `host` resolves to (a numeric host is itself), in the resolver's order.
    /// Throws `cannotResolve` when there is none.
    public static func resolve(host: String) throws(HTTPClientError) -> [NetworkAddress] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let numeric = NetworkAddress(bare) { return [numeric] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, nil, &hints, &list)
        guard status == 0, let first = list else {
            let detail = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw HTTPClientError.cannotResolve(host: bare, detail: detail)
        }
        defer { freeaddrinfo(first) }
        var found: [NetworkAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            if let address = current.pointee.ai_addr {
                let family = current.pointee.ai_family
                let printed: UnsafePointer<CChar>? = family == AF_INET
                    ? address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inner in
                        withUnsafePointer(to: inner.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) }
                    }
                    : family == AF_INET6
                    ? address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inner in
                        withUnsafePointer(to: inner.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &text, socklen_t(text.count)) }
                    }
                    : nil
                if printed != nil {
                    let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if let parsed = NetworkAddress(string), !found.contains(parsed) { found.append(parsed) }
                }
            }
            node = current.pointee.ai_next
        }
        guard !found.isEmpty else { throw HTTPClientError.cannotResolve(host: bare, detail: "no IPv4 or IPv6 address") }
        return found
    }

    /// The host name of an absolute http(s) URL, without port or brackets; nil when it is not one.
    public static func hostName(of url: String) -> String? {
        guard let authority = HTTPClient.host(of: url) else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[authority.index(after: authority.startIndex) ..< close])
        }
        if let colon = authority.lastIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }
}
