import BetaKit
import BetaServer

/// The SDK endpoints' auth: the app's ingest key (in the path, or `?key=` for the raw endpoint),
/// looked up on the blocking pool and stored in the context as the request's `CrashKey`. An
/// unknown or revoked key is answered 404 in the endpoint's own form: plain text for the SDKs,
/// or with `problems` the problem+json of `/api/v1`.
struct IngestKeyAuth: Middleware {
    let store: CrashStore
    let pool: BlockingPool
    /// Whether refusals are problem+json (the raw `/api/v1/crashes`) rather than plain text.
    let problems: Bool

    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        let presented = request.parameters["key"] ?? request.queryValue("key") ?? ""
        let requestID = problems ? context.requestID : nil
        let key: CrashKey?
        do {
            let store = self.store
            key = presented.isEmpty ? nil : try await pool.run { try store.activeKey(presented) }
        } catch let error as BlockingPoolError {
            return IntakeController.refusal(request, .serviceUnavailable, error.description, retryAfter: 5, problems: requestID)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return IntakeController.refusal(request, .internalServerError, "the report could not be stored; try again later", problems: requestID)
        }
        guard let key else {
            return IntakeController.refusal(request, .notFound, "unknown or revoked ingest key; create one with `betactl crash-key create BUNDLE_ID`",
                                            problems: requestID)
        }
        var context = context
        context.values[CrashKey.self] = key
        return try await next(request, context)
    }
}
