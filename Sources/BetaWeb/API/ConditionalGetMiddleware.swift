#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer

/// API responses to GET carry an ETag (a digest of the body) and are answered `304 Not Modified`
/// when the client's `If-None-Match` already names it. They are private to the token that asked,
/// and must be revalidated before reuse.
struct ConditionalGetMiddleware: Middleware {
    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var response = try await next(request, context)
        guard request.method == .get || request.method == .head else { return response }
        response.headers.set("Cache-Control", "private, no-cache")
        response.headers.add("Vary", "Authorization")
        guard response.status == .ok, case let .bytes(bytes) = response.body else { return response }
        let etag = response.headers["ETag"] ?? "\"\(SHA256.hash(bytes).hex.prefix(32))\""
        response.headers.set("ETag", etag)
        if Self.matches(request.headers.listElements("If-None-Match"), etag: etag) {
            var notModified = Response(status: .notModified, headers: ["ETag": etag, "Cache-Control": "private, no-cache"])
            notModified.headers.add("Vary", "Authorization")
            return notModified
        }
        return response
    }

    /// Whether one of the client's tags is `etag`, weakly compared (RFC 9110 §13.1.2): `W/` and
    /// the suffix the compression layer adds to a gzipped copy's tag do not matter.
    static func matches(_ tags: [Substring], etag: String) -> Bool {
        let wanted = opaque(Substring(etag))
        return tags.contains { $0 == "*" || opaque($0) == wanted }
    }

    static func opaque(_ tag: Substring) -> Substring {
        var tag = tag
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.hasSuffix("-gz\"") { tag = tag.dropLast(4) + "\"" }
        return tag
    }
}
