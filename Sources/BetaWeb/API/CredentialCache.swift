#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Synchronization

/// Live tokens and dashboard sessions by digest, in memory, for the head check of upload routes:
/// a request whose credential is certainly unknown (or too weak) is refused before its body is
/// read. The cache is trusted only for the data generation it was loaded at; when the database has
/// changed since, the check lets the request through (the handler checks it fully, as always) and
/// a reload starts on the blocking pool.
final class CredentialCache: Sendable {
    /// What was loaded for one generation.
    struct Credentials: Sendable {
        var tokens: [String: TokenScope]
        var sessions: [String: (scope: TokenScope, expiresAt: Date)]
    }

    /// What the cache knows about a digest.
    enum Answer: Equatable {
        /// A live credential with this scope.
        case known(TokenScope)
        /// Certainly no live credential.
        case unknown
        /// The cache is not for the current generation: unknown either way.
        case stale
    }

    private struct State {
        var generation = -1
        var credentials = Credentials(tokens: [:], sessions: [:])
        var loadingGeneration: Int?
    }

    private let state = Mutex(State())

    /// The token with `digest` at `generation`.
    func token(_ digest: String, generation: Int) -> Answer {
        state.withLock { state in
            guard state.generation == generation else { return .stale }
            return state.credentials.tokens[digest].map(Answer.known) ?? .unknown
        }
    }

    /// The session with `digest` at `generation`, if it has not expired by `now`.
    func session(_ digest: String, generation: Int, now: Date) -> Answer {
        state.withLock { state in
            guard state.generation == generation else { return .stale }
            guard let session = state.credentials.sessions[digest], session.expiresAt > now else { return .unknown }
            return .known(session.scope)
        }
    }

    /// Starts loading the credentials for `generation` unless that load is under way.
    func refresh(generation: Int, load: @escaping @Sendable () async throws -> Credentials) {
        let starts = state.withLock { state -> Bool in
            guard state.generation != generation, state.loadingGeneration != generation else { return false }
            state.loadingGeneration = generation
            return true
        }
        guard starts else { return }
        Task {
            let loaded = try? await load()
            state.withLock { state in
                if state.loadingGeneration == generation { state.loadingGeneration = nil }
                if let loaded, generation > state.generation {
                    state.generation = generation
                    state.credentials = loaded
                }
            }
        }
    }
}

extension BetaWebApplication {
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
    func uploadHeadCheck(scope: TokenScope) -> @Sendable (Request) -> Response? {
        { [self] request in
            let generation = snapshots.generation
            let secret = request.headers["Authorization"].flatMap { header -> String? in
                let parts = header.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1].trimmingSpaces) : nil
            }
            let problem: APIProblem
            if let digest = secret.flatMap(AccessTokens.digest(of:)) {
                switch credentials.token(digest, generation: generation) {
                case .stale:
                    refreshCredentials(generation: generation)
                    return nil
                case let .known(granted) where granted.allows(scope):
                    return nil
                case let .known(granted):
                    problem = APIProblem(.insufficientScope, "this token has the \(granted) scope, but this operation needs \(scope); nothing of the body was read",
                                         headers: ["WWW-Authenticate": "Bearer realm=\"betactl\", error=\"insufficient_scope\", scope=\"\(scope)\""])
                case .unknown:
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
    func dashboardUploadHeadCheck(scope: TokenScope) -> @Sendable (Request) -> Response? {
        { [self] request in
            let generation = snapshots.generation
            var reason = "You are not logged in (or your session ended), so the upload was not read. Log in and try again."
            if let digest = AdminCookies.value(AdminCookies.session, in: request).flatMap(AdminSessions.digest(of:)) {
                switch credentials.session(digest, generation: generation, now: now) {
                case .stale:
                    refreshCredentials(generation: generation)
                    return nil
                case let .known(granted) where granted.allows(scope):
                    return nil
                case let .known(granted):
                    reason = "You logged in with a \(granted) token; uploads need \(scope). The upload was not read."
                case .unknown:
                    break
                }
            }
            return Response(status: .forbidden, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
                            body: .bytes(Array((reason + "\n").utf8)))
        }
    }
}
