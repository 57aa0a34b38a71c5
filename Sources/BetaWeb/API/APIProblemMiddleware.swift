import BetaServer

/// Answers every error under `/api/v1` as `application/problem+json` (RFC 9457): the handlers'
/// own problems, domain errors mapped to their stable types, 404 and 405 from the router, and an
/// unexpected failure as a 500 that names only the request id (the details go to the server log).
struct APIProblemMiddleware: Middleware {
    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        guard APIPaths.contains(request.path) else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if let problem = APIProblem.from(error), problem.kind.status.code < 500 || problem.kind == .serviceUnavailable || problem.kind == .appleUnavailable {
                return problem.response(instance: request.path, requestID: context.requestID)
            }
            context.log.message("error: request \(context.requestID) \(request.method) \(context.log.redactTarget(request.path)) failed: \(error)")
            return APIProblem(.internalError, "the server could not answer request \(context.requestID); its log has the details under that id")
                .response(instance: request.path, requestID: context.requestID)
        }
    }
}
