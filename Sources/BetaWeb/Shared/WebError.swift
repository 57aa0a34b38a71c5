import BetaServer

/// Outcomes of a web request that are answered with a page rather than the requested thing.
enum WebError: Error, Sendable {
    /// Nothing here: an unknown link, a release not offered to this tester, a missing page. All look
    /// the same, so a made-up token or release id learns nothing.
    case notFound
    /// The release was revoked (410 Gone), with the tester's page to go back to.
    case revoked(releaseName: String, testerPage: String)
}

/// Turns errors from web handlers into HTML pages, so testers never see a bare status line, and
/// keeps internal details (paths, SQLite messages) in the server log next to the request id.
struct WebErrorMiddleware: Middleware {
    let pages: @Sendable (Request, WebError) async -> Response
    let internalError: @Sendable (Request, Context) async -> Response

    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as WebError {
            return await pages(request, error)
        } catch let error as HTTPError where error.status == .notFound {
            // A route parameter that names nothing (`parameters.require("id", as: Int64.self)`)
            // gets the same "nothing here" page as an unknown link.
            return await pages(request, .notFound)
        } catch let error as HTTPError where error.status.code < 500 {
            throw error
        } catch let error as BlockingPoolError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.log.message("error: request \(context.requestID) \(request.method) \(context.log.redactTarget(request.path)) failed: \(error)")
            return await internalError(request, context)
        }
    }
}
