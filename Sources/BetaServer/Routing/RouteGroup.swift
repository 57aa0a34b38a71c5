/// Routes that share a path prefix and middleware, registered through `Router.group`.
///
/// Parts of a site often need different authentication; each is a group whose middleware runs
/// only for its own routes, inside the server-wide layers. An auth middleware resolves the
/// principal once and stores it in `context.values` for the handlers to read typed.
///
/// ```swift
/// router.group("/a/:account", middleware: [AccountAuth()]) { account in
///     account.get("") { request, context in … }           // GET /a/:account
///     account.get("/qr.svg") { request, context in … }    // GET /a/:account/qr.svg
/// }
/// ```
public struct RouteGroup: Sendable, RouteRegistering {
    struct Entry: Sendable {
        var method: HTTPMethod
        var pattern: String
        var options: RouteOptions
        var handler: Handler
    }

    /// The prefix every pattern of the group starts with.
    public let prefix: String
    private let middleware: [any Middleware]
    private(set) var entries: [Entry] = []

    init(prefix: String, middleware: [any Middleware]) {
        self.prefix = prefix
        self.middleware = middleware
    }

    /// Registers `handler` for `method` on the group's prefix followed by `pattern` ("" is the prefix itself).
    public mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
                            _ handler: @escaping Handler) {
        entries.append(Entry(method: method, pattern: prefix + pattern, options: options,
                             handler: MiddlewareChain.wrap(middleware, around: handler)))
    }

    /// A nested group: its routes get this group's prefix and middleware outside their own.
    public mutating func group(_ prefix: String, middleware: [any Middleware] = [], _ build: (inout RouteGroup) -> Void) {
        var inner = RouteGroup(prefix: self.prefix + prefix, middleware: middleware)
        build(&inner)
        for entry in inner.entries {
            entries.append(Entry(method: entry.method, pattern: entry.pattern, options: entry.options,
                                 handler: MiddlewareChain.wrap(self.middleware, around: entry.handler)))
        }
    }
}

extension Router {
    /// Registers the routes `build` adds under `prefix`, each wrapped in `middleware` (outermost first).
    public mutating func group(_ prefix: String, middleware: [any Middleware] = [], _ build: (inout RouteGroup) -> Void) {
        var group = RouteGroup(prefix: prefix, middleware: middleware)
        build(&group)
        for entry in group.entries { on(entry.method, entry.pattern, options: entry.options, entry.handler) }
    }
}
