#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer

extension BetaWebApplication {
    /// The token a request's `Authorization: Bearer` header names, if it is live and its scope
    /// covers `scope`: 401 without a (live) token, 403 with too small a scope (RFC 6750 §3).
    func authenticate(_ request: Request, requiring scope: TokenScope) async throws -> AccessToken {
        let challenge = "Bearer realm=\"betactl\""
        guard let header = request.headers["Authorization"] else {
            throw APIProblem(.unauthorized, "this operation needs a token with the \(scope) scope: send Authorization: Bearer <token> (create one with `betactl token create NAME --scope \(scope)`)",
                             headers: ["WWW-Authenticate": challenge])
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIProblem(.unauthorized, "the Authorization header must be \"Bearer <token>\"; other schemes are not accepted",
                             headers: ["WWW-Authenticate": challenge + ", error=\"invalid_request\""])
        }
        let secret = String(parts[1].trimmingSpaces)
        let home = self.home
        let now = self.now
        guard let token = try await pool.run({ try AccessTokens(home: home).authenticate(secret: secret, now: now) }) else {
            throw APIProblem(.unauthorized, "the token is not valid: it was revoked, mistyped or never existed; `betactl token list` shows the live ones",
                             headers: ["WWW-Authenticate": challenge + ", error=\"invalid_token\""])
        }
        guard token.scope.allows(scope) else {
            throw APIProblem(.insufficientScope, "the token \(token.name) has the \(token.scope) scope, but this operation needs \(scope); create a token with `--scope \(scope)`",
                             headers: ["WWW-Authenticate": challenge + ", error=\"insufficient_scope\", scope=\"\(scope)\""])
        }
        return token
    }
}

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
