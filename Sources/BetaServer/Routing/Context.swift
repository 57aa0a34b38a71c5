/// Per-request state passed alongside the `Request` through middleware to the handler.
public struct Context: Sendable {
    /// The request id (set by `RequestIDMiddleware`), echoed as `X-Request-Id`.
    public var requestID: String = ""
    /// Who the request is authenticated as, set by an auth middleware.
    public var identity: Identity?
    /// Typed values set by middleware for the handlers after it (a resolved principal, say).
    public var values = ContextValues()
    /// Where handlers log.
    public var log: ServerLog
    /// Limits and settings of the running server.
    public let configuration: ServerConfiguration
    /// When the request head finished arriving.
    public let receivedAt: ContinuousClock.Instant
    var endpoint: Handler

    init(log: ServerLog, configuration: ServerConfiguration, endpoint: @escaping Handler) {
        self.log = log
        self.configuration = configuration
        self.receivedAt = .now
        self.endpoint = endpoint
    }

    /// A context for calling handlers directly in tests.
    public static func testing(configuration: ServerConfiguration = ServerConfiguration(),
                               log: ServerLog = .discarding) -> Context {
        Context(log: log, configuration: configuration) { _, _ in Response(status: .notFound) }
    }
}

/// An authenticated principal.
public struct Identity: Sendable, Equatable {
    /// A stable name, e.g. a user or token id; shown in the access log.
    public var name: String
    /// Roles or scopes granted.
    public var roles: Set<String>

    /// Creates an identity.
    public init(name: String, roles: Set<String> = []) {
        self.name = name
        self.roles = roles
    }
}

/// A request handler: async, may throw (`HTTPError` and `HTTPResponseError` map to their status).
public typealias Handler = @Sendable (Request, Context) async throws -> Response
