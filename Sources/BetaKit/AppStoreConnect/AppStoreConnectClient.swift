#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPClient
import Synchronization

/// Talks to the App Store Connect API with a connected key: signs tokens, sends requests through
/// the system's libcurl (blocking: never call it on an event loop), retries 429 and 5xx answers,
/// follows `links.next`, turns Apple's error bodies into sentences, and logs every call (method,
/// path, status, Apple's request id; never the key or the token).
public final class AppStoreConnectClient: Sendable {
    /// The connection used.
    public let connection: AppStoreConnectConnection
    let http: HTTPClient
    let retry: HTTPClient.RetryPolicy
    let tokens: AppStoreConnectTokens
    let log: @Sendable (String) -> Void
    let now: @Sendable () -> Date
    private let counters = Mutex<(calls: Int, rateLimit: String?)>((0, nil))

    /// A client. `log` receives one line per call made.
    public init(connection: AppStoreConnectConnection, retry: HTTPClient.RetryPolicy = HTTPClient.RetryPolicy(),
                log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date = { Date() }) {
        self.connection = connection
        self.http = HTTPClient(configuration: HTTPClient.Configuration(caFile: connection.caFile, timeout: 60, connectTimeout: 15))
        self.retry = retry
        self.tokens = AppStoreConnectTokens(key: connection.key)
        self.log = log
        self.now = now
    }

    /// Calls made so far (every attempt counts).
    public var callCount: Int { counters.withLock { $0.calls } }

    /// The last `X-Rate-Limit` header Apple sent (`user-hour-lim:3500;user-hour-rem:N;`), if any.
    public var lastRateLimit: String? { counters.withLock { $0.rateLimit } }

    /// Sends one request and returns Apple's answer whatever its status, after retries; throws
    /// only when no answer came. `pathOrURL` is a path under the base URL or a `links.next` URL.
    func send(_ method: String, _ pathOrURL: String, query: [(String, String)] = [], body: [UInt8]? = nil) throws(AppStoreConnectError) -> HTTPResponse {
        let url = try self.url(pathOrURL, query: query)
        var headers = [HTTPHeaderField("Authorization", "Bearer " + (try tokens.token(now: now()))),
                       HTTPHeaderField("Accept", "application/json")]
        if body != nil { headers.append(HTTPHeaderField("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        do {
            return try http.send(request, retrying: retry, observer: { [self] attempt in
                let rateLimit = (try? attempt.result.get())?.header("X-Rate-Limit")
                counters.withLock {
                    $0.calls += 1
                    if let rateLimit { $0.rateLimit = rateLimit }
                }
                log(Self.logLine(attempt))
            })
        } catch {
            throw AppStoreConnectError.transport(error)
        }
    }

    /// One log line: method, path, status (or the failure), Apple's request id, time taken.
    static func logLine(_ attempt: HTTPClient.Attempt) -> String {
        let path = attempt.request.pathAndQuery
        let seconds = String(Int((attempt.seconds * 1000).rounded())) + " ms"
        let retry = attempt.number > 1 ? " (attempt \(attempt.number))" : ""
        switch attempt.result {
        case let .success(response):
            let id = response.header("X-Request-ID") ?? response.header("X-Apple-Request-UUID") ?? "-"
            return "\(attempt.request.method) \(path) \(response.status) request-id=\(id) \(seconds)\(retry)"
        case let .failure(error):
            return "\(attempt.request.method) \(path) failed: \(error.description) \(seconds)\(retry)"
        }
    }

    /// The absolute URL for `pathOrURL`. An absolute URL (a `links.next`) must be under the base
    /// URL, so the token is never sent anywhere else.
    func url(_ pathOrURL: String, query: [(String, String)]) throws(AppStoreConnectError) -> String {
        var url: String
        if pathOrURL.hasPrefix("/") {
            url = connection.baseURL + pathOrURL
        } else {
            guard pathOrURL.hasPrefix(connection.baseURL + "/") else {
                throw AppStoreConnectError.unreadableAnswer(path: pathOrURL, detail: "a paging link points outside \(connection.baseURL)")
            }
            url = pathOrURL
        }
        if !query.isEmpty {
            url += (url.contains("?") ? "&" : "?") + query.map { Self.escape($0.0) + "=" + Self.escape($0.1) }.joined(separator: "&")
        }
        return url
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Decodes a 2xx answer, or throws the sentence for any other.
    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, path: String, subject: String) throws(AppStoreConnectError) -> T {
        guard response.isSuccess else { throw failure(response, subject: subject) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body))
        } catch {
            throw AppStoreConnectError.unreadableAnswer(path: path, detail: "\(error)")
        }
    }

    /// Every resource of a list, following `links.next` (at most 200 per page).
    func list<A: Decodable & Sendable>(_ path: String, query: [(String, String)], subject: String) throws(AppStoreConnectError) -> [ASC.Resource<A>] {
        var resources: [ASC.Resource<A>] = []
        var next: String? = path
        var query = query + [("limit", "200")]
        var pages = 0
        while let target = next {
            pages += 1
            guard pages <= 1000 else { throw AppStoreConnectError.unreadableAnswer(path: path, detail: "more than 1000 pages") }
            let response = try send("GET", target, query: query)
            let page = try decode(ASC.List<A, ASC.Nothing>.self, response, path: path, subject: subject)
            resources += page.data
            next = page.links?.next
            query = [] // the next link carries the query
        }
        return resources
    }

    /// Apple's error body as one sentence about `subject`.
    func failure(_ response: HTTPResponse, subject: String) -> AppStoreConnectError {
        let entries = (try? JSONDecoder().decode(ASC.Errors.self, from: Data(response.body)))?.errors ?? []
        let detail = entries.map { entry in
            [entry.title, entry.detail].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        }.filter { !$0.isEmpty }.joined(separator: "; ")
        let text = detail.isEmpty ? "no detail given" : detail
        switch response.status {
        case 401: return .unauthorized(keyID: connection.key.keyID, detail: text)
        case 403 where !Self.isDeviceLimit(text): return .forbidden(keyID: connection.key.keyID, detail: text)
        case 429: return .rateLimited(retryAfter: response.header("Retry-After"))
        default: return .refused(subject: subject, status: response.status, detail: text)
        }
    }

    /// Whether Apple's words are its yearly device limit.
    static func isDeviceLimit(_ text: String) -> Bool {
        text.lowercased().contains("maximum number of registered")
    }

    /// Apple's error details of a response, lowercased, for matching.
    static func errorText(_ response: HTTPResponse) -> String {
        let entries = (try? JSONDecoder().decode(ASC.Errors.self, from: Data(response.body)))?.errors ?? []
        return entries.map { [$0.code, $0.title, $0.detail].compactMap { $0 }.joined(separator: " ") }.joined(separator: " ").lowercased()
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
