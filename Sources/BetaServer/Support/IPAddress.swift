import CSystemShim

/// A numeric IP address as 16 bytes (IPv4 mapped into IPv6) for proxy matching.
struct IPAddress: Equatable, Sendable {
    var bytes: [UInt8]
    var isIPv4: Bool

    init?(_ text: String) {
        var storage = [UInt8](repeating: 0, count: 16)
        let family = text.withCString { shim_parse_address($0, &storage) }
        guard family != 0 else { return nil }
        bytes = storage
        isIPv4 = family == 4
    }
}

/// The set of proxy addresses whose `X-Forwarded-*` headers are trusted.
public struct TrustedProxies: Sendable {
    struct Block: Sendable {
        var address: IPAddress
        var prefixBits: Int
    }

    private var blocks: [Block] = []

    /// Parses addresses and CIDR blocks (`192.0.2.10`, `10.0.0.0/8`, `::1`, `fd00::/8`).
    public init(_ entries: [String]) throws(ServerError) {
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let first = parts.first, let address = IPAddress(String(first)) else {
                throw .invalidTrustedProxy(entry)
            }
            var bits = 128
            if parts.count == 2 {
                guard let prefix = Int(parts[1]), prefix >= 0, prefix <= (address.isIPv4 ? 32 : 128) else {
                    throw .invalidTrustedProxy(entry)
                }
                bits = address.isIPv4 ? 96 + prefix : prefix
            }
            blocks.append(Block(address: address, prefixBits: bits))
        }
    }

    /// Whether no proxies are trusted.
    public var isEmpty: Bool { blocks.isEmpty }

    /// Whether `address` (numeric text) is a trusted proxy.
    public func contains(_ address: String) -> Bool {
        guard !blocks.isEmpty, let parsed = IPAddress(address) else { return false }
        return blocks.contains { block in
            var remaining = block.prefixBits
            var index = 0
            while remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if parsed.bytes[index] & mask != block.address.bytes[index] & mask { return false }
                remaining -= 8
                index += 1
            }
            return true
        }
    }
}
