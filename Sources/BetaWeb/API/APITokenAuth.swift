#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// The API's auth for an operation that needs a token: the bearer token, live and with the scope
/// the operation needs, stored in the context as the request's `AccessToken` (handlers get it as
/// `APICall.token`). Refusals are problems: 401 without a live token, 403 with too small a scope.
struct APITokenAuth: Middleware {
    let scope: TokenScope
    let home: Home
    let pool: BlockingPool
    let now: @Sendable () -> Date

    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var context = context
        context.values[AccessToken.self] = try await authenticate(request)
        return try await next(request, context)
    }

    /// The token the request's `Authorization: Bearer` header names, if it is live and its scope
    /// covers `scope`: 401 without a (live) token, 403 with too small a scope (RFC 6750 §3).
    func authenticate(_ request: Request) async throws -> AccessToken {
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
        let now = self.now()
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

