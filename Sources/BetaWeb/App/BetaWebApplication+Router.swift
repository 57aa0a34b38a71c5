import BetaServer

extension BetaWebApplication {
    /// Every route: the health check, static assets, the tester pages under `/t/<token>`, the JSON API
    /// under `/api/v1` and the dashboard under `/admin`.
    public var router: Router {
        var router = Router()
        // Handlers run on the connection's event loop: they never block (SQLite, file opens and the
        // like go to the blocking pool and are awaited), and pages mostly come from memory, so the
        // hop to Swift's shared pool and back would cost more than the work.
        let loop = RouteOptions(execution: .eventLoop)
        router.notFound = { [self] request, context in
            APIPaths.contains(request.path) ? apiNotFound(request, context) : await errorPage(request, .notFound)
        }
        router.get("/assets/brand.css", options: loop) { [self] request, _ in try await brandStylesheet(request) }
        router.get("/assets/*path", options: loop) { [self] request, _ in asset(request) }
        // Secret links: never sent on as a Referer, never stored by a cache, never compressed (their
        // pages reflect the Host header next to the token, which BREACH could turn into a leak).
        let tokenPages = SecurityHeadersMiddleware(fields: [("Referrer-Policy", "no-referrer"),
                                                            ("Cache-Control", "private, no-store")])
        // Tester routes read the tester `TesterAuth` resolved from the link's token.
        let auth = TesterAuth(snapshots: snapshots)
        router.group(TesterURLs.Pattern.group, middleware: [tokenPages, NoCompressionMiddleware()]) { links in
            links.group("", middleware: [auth]) { tester in
                tester.get("", options: loop) { [self] request, context in try await testerPage(request, context.require(TesterRequest.self)) }
                tester.get(TesterURLs.Pattern.release, options: loop) { [self] request, context in
                    try await releasePage(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.manifest, options: loop) { [self] request, context in
                    try await manifest(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.package, options: loop) { [self] request, context in
                    try await package(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.icon, options: loop) { [self] request, context in try await icon(request, context.require(TesterRequest.self)) }
                tester.get(TesterURLs.Pattern.qrSVG, options: loop) { [self] request, context in
                    try await qrCode(request, context.require(TesterRequest.self), png: false)
                }
                tester.get(TesterURLs.Pattern.qrPNG, options: loop) { [self] request, context in
                    try await qrCode(request, context.require(TesterRequest.self), png: true)
                }
                tester.post(TesterURLs.Pattern.crashes, options: RouteOptions(bodyLimit: crashPageBodyLimit, execution: .eventLoop)) { [self] request, context in
                    try await testerCrashUpload(request, context.require(TesterRequest.self))
                }
            }
            addEnrollmentRoutes(to: &links, auth: auth)
        }
        addAPIRoutes(to: &router)
        addAdminRoutes(to: &router)
        addCrashRoutes(to: &router)
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
