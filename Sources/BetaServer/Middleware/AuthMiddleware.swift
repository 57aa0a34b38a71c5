/// The verdict of an authentication hook.
public enum AuthDecision: Sendable {
    /// Continue, optionally as an identity.
    case allow(Identity?)
    /// Stop and answer with this response (e.g. 401 with `WWW-Authenticate`).
    case deny(Response)
}

/// Runs an authentication/authorisation hook before the handler and records the identity in the context.
public struct AuthMiddleware: Middleware {
    private let hook: @Sendable (Request, Context) async throws -> AuthDecision

    /// Creates the middleware around `hook`.
    public init(_ hook: @escaping @Sendable (Request, Context) async throws -> AuthDecision) {
        self.hook = hook
    }

    /// Runs the hook, then the handler if allowed.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        switch try await hook(request, context) {
        case .deny(let response):
            return response
        case .allow(let identity):
            var context = context
            if let identity { context.identity = identity }
            return try await next(request, context)
        }
    }
}
