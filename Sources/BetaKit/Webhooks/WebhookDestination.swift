import HTTPClient

/// A webhook URL checked for where it leads: only http(s), no credentials, and (unless allowed)
/// no address inside a private network. Checked when a webhook is added and again before every
/// attempt, since DNS answers change; the attempt then connects to the address checked.
public struct WebhookDestination: Sendable, Equatable {
    /// The URL.
    public var url: String
    /// The address to connect to, checked.
    public var address: String

    /// Checks `url` and resolves its host; throws naming the URL and the refused address.
    public static func check(_ url: String, allowPrivate: Bool) throws(WebhookError) -> WebhookDestination {
        let trimmed = url.trimmed
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), trimmed.utf8.count <= 2048,
              !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
              let host = NetworkAddress.hostName(of: trimmed), !host.isEmpty else {
            throw WebhookError.invalidURL(url)
        }
        let addresses: [NetworkAddress]
        do {
            addresses = try NetworkAddress.resolve(host: host)
        } catch {
            throw WebhookError.unresolvable(url: trimmed, detail: Self.detail(error))
        }
        if !allowPrivate, let refused = addresses.first(where: { !$0.isGlobal }) {
            // Every answer must be public: a name answering both could be steered to the private one.
            throw WebhookError.privateAddress(url: trimmed, address: refused.text, range: refused.range.rawValue)
        }
        guard let first = addresses.first else { throw WebhookError.unresolvable(url: trimmed, detail: "no address") }
        return WebhookDestination(url: trimmed, address: first.text)
    }

    private static func detail(_ error: HTTPClientError) -> String {
        if case let .cannotResolve(_, detail) = error { return detail }
        return error.description
    }
}
