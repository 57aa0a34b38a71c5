#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// The head checks of upload routes: a request without a live credential of the scope the route
/// needs is answered before its body is read, from `CredentialCache` (refreshed in the background
/// when the store changes).
struct UploadHeadChecks: Sendable {
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let credentials: CredentialCache
    let configuration: WebConfiguration

    /// The current time.
    var now: Date { configuration.now() }

    /// Reloads the credential cache for the current generation in the background.
    func refreshCredentials(generation: Int) {
        let home = self.home
        let pool = self.pool
        let now = self.now
        credentials.refresh(generation: generation) {
            try await pool.run {
                CredentialCache.Credentials(tokens: try AccessTokens(home: home).liveScopesByDigest(),
                                            sessions: try AdminSessions(home: home).liveScopesByDigest(now: now))
            }
        }
    }

    /// The head check of API routes that take uploads: without a bearer token, or with one that is
    /// certainly not a live token with `scope`, the request is answered at once.
    func api(scope: TokenScope) -> @Sendable (Request) -> Response? {
        { [self] request in
            let generation = snapshots.generation
            let secret = request.headers["Authorization"].flatMap { header -> String? in
                let parts = header.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1].trimmingSpaces) : nil
            }
            let problem: APIProblem
            if let digest = secret.flatMap(AccessTokens.digest(of:)) {
                switch verdict(credentials.token(digest, generation: generation), scope: scope, generation: generation) {
                case .letThrough:
                    return nil
                case let .scopeTooSmall(granted):
                    problem = APIProblem(.insufficientScope, "this token has the \(granted) scope, but this operation needs \(scope); nothing of the body was read",
                                         headers: ["WWW-Authenticate": "Bearer realm=\"betactl\", error=\"insufficient_scope\", scope=\"\(scope)\""])
                case .unknownCredential:
                    problem = APIProblem(.unauthorized, "the token is not valid (revoked, mistyped or never created); nothing of the body was read",
                                         headers: ["WWW-Authenticate": "Bearer realm=\"betactl\", error=\"invalid_token\""])
                }
            } else {
                problem = APIProblem(.unauthorized, "uploads need a token with the \(scope) scope: send Authorization: Bearer <token>; nothing of the body was read",
                                     headers: ["WWW-Authenticate": "Bearer realm=\"betactl\""])
            }
            return problem.response(instance: request.path, requestID: "")
        }
    }

    /// The head check of dashboard uploads: without a live session of `scope`, the request is
    /// answered at once with a short page.
    func dashboard(scope: TokenScope) -> @Sendable (Request) -> Response? {
        { [self] request in
            let generation = snapshots.generation
            var reason = "You are not logged in (or your session ended), so the upload was not read. Log in and try again."
            if let digest = AdminCookies.value(AdminCookies.session, in: request).flatMap(AdminSessions.digest(of:)) {
                switch verdict(credentials.session(digest, generation: generation, now: now), scope: scope, generation: generation) {
                case .letThrough:
                    return nil
                case let .scopeTooSmall(granted):
                    reason = "You logged in with a \(granted) token; uploads need \(scope). The upload was not read."
                case .unknownCredential:
                    break
                }
            }
            return Response(status: .forbidden, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
                            body: .bytes(Array((reason + "\n").utf8)))
        }
    }

    /// What a head check does with a credential the cache answered `answer` for.
    private enum Verdict {
        /// Let the request through: the credential allows the scope, or the cache is stale (the
        /// handler then checks in full while the cache is refreshed).
        case letThrough
        /// A live credential whose scope is too small.
        case scopeTooSmall(TokenScope)
        /// No live credential has that secret.
        case unknownCredential
    }

    private func verdict(_ answer: CredentialCache.Answer, scope: TokenScope, generation: Int) -> Verdict {
        switch answer {
        case .stale:
            refreshCredentials(generation: generation)
            return .letThrough
        case let .known(granted):
            return granted.allows(scope) ? .letThrough : .scopeTooSmall(granted)
        case .unknown:
            return .unknownCredential
        }
    }
}
