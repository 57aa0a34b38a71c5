/// The OpenAPI 3.1 description of the API, made from the same operation list the router is built
/// from: every route is in it, with its scope, parameters, request body and responses.
enum OpenAPIDocument {
    /// The document for an API served at `serverURL` (e.g. `https://beta.example.com/api/v1`).
    static func make(operations: [APIOperation], serverURL: String) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for operation in operations {
            var item = paths[operation.documentedPath] ?? [:]
            item.set(operation.method.rawValue.lowercased(), describe(operation))
            paths[operation.documentedPath] = item
        }
        let tags = orderedTags(operations).map { JSONValue.object(["name": .string($0)]) }
        return [
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
            "info": [
                "title": "betactl API",
                "version": "1",
                "description": .string("""
                    The JSON API of a betactl server: testers, devices and their slots, provisioning profiles, releases \
                    (uploaded from CI), symbols, crash reports and their groups, and settings. Authenticate with `Authorization: Bearer <token>`; create \
                    tokens with `betactl token create NAME --scope read|write|admin`. Scopes: read (lists and pages), \
                    write (releases, symbols, testers, devices and profiles), admin (tokens and settings); each includes \
                    the ones before it. Errors are RFC 9457 `application/problem+json` with a stable `type` per kind. \
                    Lists are paged with `limit` and the `nextCursor` of the previous page (also sent as a `Link` header), \
                    and GET answers carry an `ETag` that `If-None-Match` turns into `304 Not Modified`.
                    """),
            ],
            "servers": [["url": .string(serverURL)]],
            "security": [["bearer": []]],
            "tags": .array(tags),
            "paths": .object(paths),
            "components": [
                "securitySchemes": .object(APISchemas.securitySchemes),
                "schemas": .object(APISchemas.all.mapValues(\.json)),
                "responses": [
                    "Problem": [
                        "description": "An error, as RFC 9457 problem details.",
                        "content": ["application/problem+json": ["schema": JSONSchema.ref("Problem").json]],
                    ],
                    "NotModified": [
                        "description": "The representation has not changed since the ETag named in If-None-Match.",
                        "headers": ["ETag": ["schema": ["type": "string"]]],
                    ],
                ],
            ],
        ]
    }

    static func orderedTags(_ operations: [APIOperation]) -> [String] {
        var seen = Set<String>()
        return operations.map(\.tag).filter { seen.insert($0).inserted }
    }

    static func describe(_ operation: APIOperation) -> JSONValue {
        var out: [String: JSONValue] = [
            "operationId": .string(operation.operationID),
            "summary": .string(operation.summary),
            "tags": [.string(operation.tag)],
        ]
        if let security = operation.security {
            out["security"] = security
        } else if let scope = operation.scope {
            // OpenAPI 3.1 lets a non-OAuth requirement list the roles it needs: the token's scope.
            out["security"] = [["bearer": [.string(scope.rawValue)]]]
            out["description"] = .string("Needs a token with the `\(scope)` scope (or a larger one).")
        } else {
            out["security"] = []
            out["description"] = "Needs no token."
        }
        var parameters: [JSONValue] = operation.pathParameters.map { name in
            ["name": .string(name), "in": "path", "required": true,
             "schema": name == "id" ? ["type": "integer", "minimum": 1] : ["type": "string"]]
        }
        for parameter in operation.parameters {
            parameters.append(["name": .string(parameter.name), "in": "query", "required": .bool(parameter.required),
                               "description": .string(parameter.description), "schema": parameter.schema.json])
        }
        if !parameters.isEmpty { out["parameters"] = .array(parameters) }
        if let body = operation.body {
            var content: [String: JSONValue] = ["schema": body.schema.json]
            if body.mediaType == "multipart/form-data" {
                // Repeated parts and files: each array item is one part of the same name.
                content["encoding"] = ["dsym": ["contentType": "application/octet-stream"]]
            }
            out["requestBody"] = ["required": true, "description": .string(body.description),
                                  "content": .object([body.mediaType: .object(content)])]
        }
        var responses: [String: JSONValue] = [:]
        for outcome in operation.outcomes {
            var response: [String: JSONValue] = ["description": .string(outcome.description)]
            if let schema = outcome.schema { response["content"] = .object([outcome.mediaType: ["schema": schema.json]]) }
            var headers: [String: JSONValue] = [:]
            if operation.method == .get && outcome.status == 200 {
                headers["ETag"] = ["description": "A tag of this representation, for If-None-Match.", "schema": ["type": "string"]]
            }
            if operation.parameters.contains(where: { $0.name == "cursor" }) {
                headers["Link"] = ["description": "`<…?cursor=…>; rel=\"next\"` when there is a next page.", "schema": ["type": "string"]]
            }
            if outcome.status == 201 {
                headers["Location"] = ["description": "Where the created resource is.", "schema": ["type": "string"]]
            }
            if !headers.isEmpty { response["headers"] = .object(headers) }
            responses[String(outcome.status)] = .object(response)
        }
        let problem: JSONValue = ["$ref": "#/components/responses/Problem"]
        if operation.method == .get { responses["304"] = ["$ref": "#/components/responses/NotModified"] }
        if operation.scope != nil {
            responses["401"] = problem
            responses["403"] = problem
        }
        if !operation.pathParameters.isEmpty { responses["404"] = problem }
        if !operation.parameters.isEmpty || operation.body != nil { responses["400"] = problem }
        if operation.body != nil || operation.method != .get { responses["409"] = problem }
        if operation.body != nil { responses["422"] = problem }
        if operation.body?.mediaType != nil && operation.bodyLimit > (1 << 20) { responses["413"] = problem }
        responses["default"] = problem
        out["responses"] = .object(responses)
        return .object(out)
    }
}
