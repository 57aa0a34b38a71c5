import PosixIO

/// Writes one line per request in the combined log format:
/// `client - user [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1" 200 2326 "referer" "agent"`.
public struct AccessLogMiddleware: Middleware {
    private let sink: @Sendable (String) -> Void
    private let redact: @Sendable (String) -> String

    /// Creates the middleware writing to `sink`, passing request targets through `redact` first.
    public init(sink: @escaping @Sendable (String) -> Void, redact: @escaping @Sendable (String) -> String = { $0 }) {
        self.sink = sink
        self.redact = redact
    }

    /// Calls `next` and logs the outcome.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        let response = try await next(request, context)
        sink(AccessLogMiddleware.line(request: request, response: response, identity: context.identity, time: WallClock.seconds,
                                      redact: redact))
        return response
    }

    /// Formats one combined-log line.
    public static func line(request: Request, response: Response, identity: Identity?, time: Int,
                            redact: (String) -> String = { $0 }) -> String {
        let size: String
        if request.method == .head || response.status.forbidsBody {
            size = "-"
        } else if let length = response.body.knownLength {
            size = String(length)
        } else {
            size = "-"
        }
        let user = identity.map { quoteFree($0.name) } ?? "-"
        let requestLine = "\(request.method) \(redact(request.target)) \(request.version)"
        return "\(request.clientAddress) - \(user) [\(HTTPDate.commonLog(time))] \"\(escape(requestLine))\" "
            + "\(response.status.code) \(size) \"\(escape(request.headers["Referer"] ?? "-"))\" "
            + "\"\(escape(request.headers["User-Agent"] ?? "-"))\""
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func quoteFree(_ text: String) -> String {
        text.isEmpty ? "-" : String(text.map { $0 == " " || $0 == "\"" ? "_" : $0 })
    }
}
