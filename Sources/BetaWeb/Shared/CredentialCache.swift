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
