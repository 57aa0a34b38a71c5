/// Wraps request handling: inspect or change the request, call `next`, inspect or change the response.
public protocol Middleware: Sendable {
    /// Handles `request`, usually by calling `next` once.
    func respond(to request: Request, context: Context, next: Handler) async throws -> Response
}

/// A middleware built from a closure, for small hooks.
public struct ClosureMiddleware: Middleware {
    private let body: @Sendable (Request, Context, Handler) async throws -> Response

    /// Creates a middleware from `body`.
    public init(_ body: @escaping @Sendable (Request, Context, Handler) async throws -> Response) {
        self.body = body
    }

    /// Calls the closure.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        try await body(request, context, next)
    }
}

enum MiddlewareChain {
    /// Folds middleware (outermost first) around the endpoint carried in the context.
    static func build(_ middleware: [any Middleware]) -> Handler {
        wrap(middleware, around: { request, context in try await context.endpoint(request, context) })
    }

    /// Folds middleware (outermost first) around `handler`.
    static func wrap(_ middleware: [any Middleware], around handler: @escaping Handler) -> Handler {
        var handler = handler
        for layer in middleware.reversed() {
            let next = handler
            handler = { request, context in try await layer.respond(to: request, context: context, next: next) }
        }
        return handler
    }
}
