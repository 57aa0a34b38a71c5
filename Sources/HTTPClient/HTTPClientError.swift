/// Why a request got no HTTP response. Each kind is told apart, because each has its own fix.
public enum HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl could not be loaded.
    case libraryUnavailable(String)
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String)
    /// The host name did not resolve.
    case cannotResolve(host: String, detail: String)
    /// Nothing accepted the connection.
    case cannotConnect(host: String, detail: String)
    /// No answer within the time allowed.
    case timedOut(host: String, seconds: Double)
    /// The TLS handshake or the server's certificate failed.
    case tls(host: String, detail: String)
    /// The connection broke while sending or receiving.
    case network(host: String, detail: String)
    /// The response was larger than allowed.
    case responseTooLarge(host: String, limit: Int)

    /// A sentence naming what failed and the fix.
    public var description: String {
        switch self {
        case let .libraryUnavailable(reason):
            return "libcurl could not be loaded (\(reason)); install it (Debian and Ubuntu: apt install libcurl4) to make HTTPS requests"
        case let .invalidURL(url):
            return "\"\(url)\" is not an absolute http:// or https:// URL; give one such as https://api.example.com/"
        case let .cannotResolve(host, detail):
            return "the host \(host) could not be resolved (\(detail)); check the name and this machine's DNS"
        case let .cannotConnect(host, detail):
            return "could not connect to \(host) (\(detail)); check this machine's network and firewall"
        case let .timedOut(host, seconds):
            return "\(host) did not answer within \(Self.seconds(seconds)); try again, or check this machine's network"
        case let .tls(host, detail):
            return "the TLS connection to \(host) failed (\(detail)); check the system's CA certificates and clock, or the CA file given"
        case let .network(host, detail):
            return "the connection to \(host) broke (\(detail)); try again"
        case let .responseTooLarge(host, limit):
            return "\(host) sent an answer larger than \(limit) bytes, so it was not read"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Whether nothing reached the server, so sending again cannot repeat an action.
    public var isBeforeSending: Bool {
        switch self {
        case .cannotResolve, .cannotConnect: true
        default: false
        }
    }

    /// libcurl's result codes mapped to the kinds above (curl.h's CURLcode values).
    static func from(code: Int32, detail: String, host: String, timeout: Double, limit: Int, overflowed: Bool) -> HTTPClientError {
        switch code {
        case 3: return .invalidURL(host)
        case 5, 6: return .cannotResolve(host: host, detail: detail)
        case 7: return .cannotConnect(host: host, detail: detail)
        case 28: return .timedOut(host: host, seconds: timeout)
        case 23 where overflowed: return .responseTooLarge(host: host, limit: limit)
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: return .tls(host: host, detail: detail)
        default: return .network(host: host, detail: detail)
        }
    }
}
