import BetaServer

/// The origin (and path prefix) absolute links are built on, chosen per request.
///
/// iOS installs over the air only from https, so https wins whenever it is known: the configured
/// public URL when it is https (it is authoritative, and may carry a path prefix such as
/// `https://example.com/beta`), else the request's own origin when a trusted proxy says the client
/// used https. Otherwise links use plain http (the request's Host, or the public URL when the request
/// named no usable host) and pages warn that iOS will refuse the install.
public struct PublicBase: Sendable, Equatable {
    /// `scheme://host[:port][/prefix]`, without a trailing slash.
    public let url: String

    /// Whether links will be https.
    public var isSecure: Bool { url.hasPrefix("https://") }

    /// A base from an already normalised URL (no trailing slash).
    public init(url: String) { self.url = url }

    /// The base for `request`, given the home's public URL setting.
    public init(request: Request, publicURL: String) {
        if publicURL.lowercased().hasPrefix("https://") {
            url = publicURL
        } else if let host = request.host.flatMap(Self.validHost) {
            url = (request.scheme == "https" ? "https://" : "http://") + host
        } else {
            url = publicURL
        }
    }

    /// `host` when it is a plain host name or address with an optional port (what may safely go into
    /// a link); nil otherwise.
    static func validHost(_ host: String) -> String? {
        guard (1 ... 255).contains(host.utf8.count) else { return nil }
        let allowed = host.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "_")
        }
        return allowed ? host : nil
    }
}
