import BetaKit
import BetaServer

extension APIController {
    /// Every operation of `/api/v1`, in the order the OpenAPI document lists them. An ingest
    /// endpoint with its own key (`crashOperations`) states its `security` and, having a route of
    /// its own, is `isRoutedElsewhere`; reading crash reports (`crashReportOperations`) needs a token.
    var operations: [APIOperation] {
        testerOperations + deviceOperations + deviceRequestOperations + profileOperations + releaseOperations + resignOperations + symbolOperations + crashOperations + crashReportOperations
            + adminOperations + appleOperations + jobOperations + updateOperations + webhookOperations
            + [openAPIOperation]
    }

    /// `GET /api/v1/openapi.json`: the OpenAPI 3.1 document; it needs no token.
    var openAPIOperation: APIOperation {
        APIOperation(method: .get, path: "/openapi.json", scope: nil, operationID: "getOpenAPI", tag: "API",
                     summary: "This API's OpenAPI 3.1 description.",
                     outcomes: [.init(status: 200, description: "The document.", schema: .object([], additional: .any()))]) { [self] call in
            let settings = try await snapshots.current().snapshot.settings
            let base = PublicBase(request: call.request, publicURL: settings.publicURL)
            return try Response.api(OpenAPIDocument.make(operations: operations, serverURL: base.url + APIPaths.prefix))
        }
    }

    /// Registers every API operation under `/api/v1`, each needing a token behind `APITokenAuth` for its scope.
    func addRoutes(to router: inout Router) {
        let operations = operations
        router.group(APIPaths.prefix, middleware: [ConditionalGetMiddleware()]) { api in
            for operation in operations where !operation.isRoutedElsewhere {
                var options = RouteOptions(bodyLimit: operation.bodyLimit, execution: .eventLoop)
                if operation.checksTokenBeforeBody, let scope = operation.scope { options.headCheck = headChecks.api(scope: scope) }
                let auth: [any Middleware] = operation.scope.map { [APITokenAuth(scope: $0, home: home, pool: pool, now: configuration.now)] } ?? []
                api.group("", middleware: auth) { route in
                    route.on(operation.method, operation.path, options: options) { request, context in
                        try await operation.handler(APICall(request: request, context: context, token: context.values[AccessToken.self]))
                    }
                }
            }
        }
    }

    /// The 404 of an API path: a problem, not a page.
    func notFound(_ request: Request, _ context: Context) -> Response {
        APIProblem(.notFound, "there is no \(request.method) \(String(request.path.prefix(200))) in this API; GET \(APIPaths.prefix)/openapi.json lists every operation")
            .response(instance: request.path, requestID: context.requestID)
    }
}
