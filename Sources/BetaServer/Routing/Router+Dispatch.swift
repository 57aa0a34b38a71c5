/// What a connection and the in-process client both decide from a route resolution, in one place:
/// the answer to a malformed path, the route's head check, its body limits, and the handler to run.
extension Router {
    /// The answer to a path with a malformed percent-escape.
    static let malformedPathMessage = "the path contains a malformed percent-escape; encode '%' as %25"

    /// The refusal of `request`'s route's head check, if it has one and refuses.
    static func headRefusal(_ resolution: Resolution, _ request: Request) -> Response? {
        guard case .matched(let route, let parameters) = resolution, let check = route.options.headCheck else { return nil }
        var probe = request
        probe.parameters = parameters
        return check(probe)
    }

    /// The body limit for `resolution`, and how much of a larger body is read and dropped for
    /// routes that truncate (nil: a larger body is refused). Unmatched requests get a small limit.
    static func bodyLimits(_ resolution: Resolution, limits: HTTPLimits) -> (limit: Int64, drainLimit: Int64?) {
        guard case .matched(let route, _) = resolution else { return (min(limits.bodyBytes, 64 * 1024), nil) }
        let limit = route.options.bodyLimit ?? limits.bodyBytes
        if case .truncate(let drain) = route.options.oversizedBody { return (limit, max(drain, limit)) }
        return (limit, nil)
    }

    /// The handler to run for `resolution` (nil: nothing matched), with the route's parameters set
    /// on `request`, and where it runs: the route's handler, the 405 or OPTIONS answer, or the 404.
    func endpoint(for resolution: Resolution?, request: inout Request) -> (handler: Handler, execution: RouteOptions.Execution) {
        switch resolution {
        case .matched(let route, let parameters):
            request.parameters = parameters
            return (route.handler, route.options.execution)
        case .methodNotAllowed(let allow):
            let allowValue = allow.joined(separator: ", ")
            if request.method == .options {
                return ({ _, _ in Response(status: .noContent, headers: ["Allow": allowValue]) }, .eventLoop)
            }
            return ({ request, _ in
                throw HTTPError(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowValue)", headers: ["Allow": allowValue])
            }, .eventLoop)
        case .notFound, .malformedPath, nil:
            return (notFound ?? { _, _ in throw HTTPError(.notFound, "nothing here; check the address") }, .eventLoop)
        }
    }
}
