/// Turns thrown errors into responses. Client errors (`HTTPError` and `HTTPResponseError` with a
/// 4xx status) keep their status and message. Everything else is the server's problem: the client
/// gets the status and the request id only, and the details (which may name files or quote the
/// system) go to the log under that id.
public struct ErrorMiddleware: Middleware {
    /// Creates the middleware.
    public init() {}

    /// Calls `next` and maps errors.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var response = error.status.code >= 500
                ? ErrorMiddleware.internalFailure(error.status, details: error.message, request: request, context: context)
                : Response.text("\(error.status.code) \(error.status.reason): \(error.message)\n", status: error.status)
            for field in error.headers { response.headers.set(field.name, field.value) }
            return response
        } catch let error as any HTTPResponseError {
            if error.httpStatus.code >= 500 {
                return ErrorMiddleware.internalFailure(error.httpStatus, details: String(describing: error),
                                                       request: request, context: context)
            }
            return .text("\(error.httpStatus.code) \(error.httpStatus.reason): \(error)\n", status: error.httpStatus)
        } catch is CancellationError {
            // The client went away or the server is stopping; nobody may be left to read this.
            context.log.message("request \(context.requestID) \(request.method) \(context.log.redactTarget(request.path)) was cancelled "
                + "(the client went away or the server is stopping)")
            return .text("503 Service Unavailable: request \(context.requestID) was cancelled; retry\n",
                         status: .serviceUnavailable)
        } catch {
            return ErrorMiddleware.internalFailure(.internalServerError, details: String(describing: error),
                                                   request: request, context: context)
        }
    }

    /// Logs `details` under the request id and answers with the status and that id only.
    static func internalFailure(_ status: HTTPStatus, details: String, request: Request, context: Context) -> Response {
        context.log.message("error: request \(context.requestID) \(request.method) \(context.log.redactTarget(request.path)) failed: \(details)")
        return .text("\(status.code) \(status.reason): request \(context.requestID) failed; see the server log\n",
                     status: status)
    }
}
