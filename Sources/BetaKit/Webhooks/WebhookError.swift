/// Why a webhook operation was refused. Each message names the value and the fix.
public enum WebhookError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String)
    /// The URL's host resolves to an address inside a private network.
    case privateAddress(url: String, address: String, range: String)
    /// The host did not resolve.
    case unresolvable(url: String, detail: String)
    /// An `--event` name that is not an event.
    case unknownEvent(String)
    /// A `--format` that is not one.
    case unknownFormat(String)
    /// No webhook has this id.
    case unknownWebhook(String)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .invalidURL(url):
            return "\"\(url)\" is not an absolute http:// or https:// URL without credentials; give one such as https://hooks.example.com/betactl"
        case let .privateAddress(url, address, range):
            return "\(url) resolves to \(address), a \(range) address; webhooks may not reach inside this network unless added with --allow-private (for an on-premise chat server)"
        case let .unresolvable(url, detail):
            return "the host of \(url) could not be resolved (\(detail)); check the URL and this machine's DNS"
        case let .unknownEvent(name):
            return "\"\(name)\" is not a webhook event; use one of \(WebhookEvent.subscribable.map(\.rawValue).joined(separator: ", "))"
        case let .unknownFormat(name):
            return "\"\(name)\" is not a webhook format; use standard, slack or discord"
        case let .unknownWebhook(id):
            return "no webhook has the id \(id); `betactl webhook list` shows them"
        }
    }

    /// Bad input, or a refusal.
    public var category: ErrorCategory {
        switch self {
        case .invalidURL, .unknownEvent, .unknownFormat: .invalidInput
        case .privateAddress, .unresolvable, .unknownWebhook: .refused
        }
    }
}
