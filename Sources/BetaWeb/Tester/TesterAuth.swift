import BetaKit
import BetaServer

/// Who a request under `/t/<token>` is for, and the data to answer it from: the principal
/// `TesterAuth` puts into the request's context.
struct TesterRequest: Sendable {
    var snapshot: DistributionSnapshot
    var generation: Int
    var tester: Tester
    var urls: TesterURLs
}

/// The tester links' auth: resolves the `:token` of the path against the current snapshot once,
/// and stores the `TesterRequest` in the context for the handlers (`context.require(TesterRequest.self)`).
/// An unknown token is `WebError.notFound`, the same "nothing here" page as any unknown address.
struct TesterAuth: Middleware {
    let snapshots: SnapshotStore

    func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        let (snapshot, generation) = try await snapshots.current()
        let token = try request.parameters.require("token")
        guard let tester = snapshot.tester(token: token) else { throw WebError.notFound }
        let base = PublicBase(request: request, publicURL: snapshot.settings.publicURL)
        var context = context
        context.values[TesterRequest.self] = TesterRequest(snapshot: snapshot, generation: generation, tester: tester,
                                                           urls: TesterURLs(base: base, token: token))
        return try await next(request, context)
    }
}
