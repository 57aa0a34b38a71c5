import BetaServer

extension BetaWebApplication {
    /// Every route: static assets, the tester pages under `/t/<token>`, the SDKs' crash endpoints,
    /// the JSON API under `/api/v1` and the dashboard under `/admin`.
    public var router: Router {
        var router = Router()
        // Handlers run on the connection's event loop: they never block (SQLite, file opens and the
        // like go to the blocking pool and are awaited), and pages mostly come from memory, so the
        // hop to Swift's shared pool and back would cost more than the work.
        router.notFound = { [self] request, context in
            APIPaths.contains(request.path) ? api.notFound(request, context) : await site.errorPage(request, .notFound)
        }
        site.addRoutes(to: &router)
        tester.addRoutes(to: &router)
        api.addRoutes(to: &router)
        admin.addRoutes(to: &router)
        intake.addRoutes(to: &router)
        return router
    }
}

/// Marks responses as not to be compressed (see `Response.allowsCompression`).
struct NoCompressionMiddleware: Middleware {
    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var response = try await next(request, context)
        response.allowsCompression = false
        return response
    }
}
