/// Turns thrown errors into responses: `HTTPError` and `HTTPResponseError` keep their status,
/// anything else becomes 500 with the request id (details go to the log, not the client).
public struct ErrorMiddleware: Middleware {
    /// Creates the middleware.
    public init() {}

    /// Calls `next` and maps errors.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var response = Response.text("\(error.status.code) \(error.status.reason): \(error.message)\n",
                                         status: error.status)
            for field in error.headers { response.headers.set(field.name, field.value) }
            return response
        } catch let error as any HTTPResponseError {
            return .text("\(error.httpStatus.code) \(error.httpStatus.reason): \(error)\n", status: error.httpStatus)
        } catch {
            context.log.message("error: request \(context.requestID) \(request.method) \(context.log.redactTarget(request.path)) failed: \(error)")
            return .text("500 Internal Server Error: request \(context.requestID) failed; see the server log\n",
                         status: .internalServerError)
        }
    }
}
