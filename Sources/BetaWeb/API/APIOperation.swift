import BetaKit
import BetaServer

/// One request an API handler answers: the request, the server's context, and the token that
/// authenticated it (nil only for the operations that need none).
struct APICall: Sendable {
    var request: Request
    var context: Context
    var token: AccessToken?
}

/// One operation of the JSON API: how it is routed, which token scope it needs, and how the
/// OpenAPI document describes it. The router and the document are both made from the same list
/// (`APIController.operations`), so no route can go undocumented.
struct APIOperation: Sendable {
    /// A query parameter.
    struct Parameter: Sendable {
        var name: String
        var schema: JSONSchema
        var description: String
        var required = false
    }

    /// A request body: its media type and schema.
    struct Body: Sendable {
        var mediaType: String
        var schema: JSONSchema
        var description: String
    }

    /// One documented response.
    struct Outcome: Sendable {
        var status: Int
        var description: String
        /// The schema of the body; nil for none. Problems (4xx/5xx) are always `Problem`.
        var schema: JSONSchema?
        var mediaType = "application/json"
    }

    var method: HTTPMethod
    /// The route pattern below `/api/v1`, in the router's syntax: `/testers/:id`.
    var path: String
    /// The scope a token needs; nil for operations that need no token (the OpenAPI document) or
    /// that authenticate themselves (see `security`).
    var scope: TokenScope?
    var operationID: String
    var tag: String
    var summary: String
    var parameters: [Parameter] = []
    var body: Body?
    var outcomes: [Outcome]
    /// The largest body accepted; uploads raise it.
    var bodyLimit: Int64 = 1 << 20
    /// Whether the token is checked from the head, before the body is read (large uploads).
    var checksTokenBeforeBody = false
    /// The OpenAPI security requirement when it is not a bearer token, e.g.
    /// `[["ingestKey": []]]` for an endpoint that takes its own key (the scheme itself goes in
    /// `APISchemas.securitySchemes`). Such an operation checks its credential in its handler.
    var security: JSONValue? = nil
    /// Whether the route is registered by its own code (in a route group of its own, say, with
    /// middleware of its own) and only described here; `APIController.addRoutes` then leaves it alone.
    var isRoutedElsewhere = false
    var handler: @Sendable (APICall) async throws -> Response

    /// The path as OpenAPI writes it: `/testers/{id}`.
    var documentedPath: String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }.joined(separator: "/")
    }

    /// The names of the path's `:parameters`.
    var pathParameters: [String] {
        path.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// The paging parameters every list takes.
    static let pagingParameters = [
        Parameter(name: "limit", schema: .integer(minimum: 1), description: "Items per page, 1 to 500 (default 100)."),
        Parameter(name: "cursor", schema: .text, description: "The `nextCursor` of the previous page; omit for the first page."),
    ]
}

/// Where the API lives.
enum APIPaths {
    /// Every API route starts with this.
    static let prefix = "/api/v1"

    /// Whether `path` belongs to the API (its errors are problem+json).
    static func contains(_ path: String) -> Bool { path == prefix || path.hasPrefix(prefix + "/") }
}
