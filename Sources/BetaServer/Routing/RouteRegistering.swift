/// Something routes are registered on: the `Router` itself or one of its `RouteGroup`s. The
/// per-method shorthands are written once, here.
public protocol RouteRegistering {
    /// Registers `handler` for `method` on `pattern`.
    mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions, _ handler: @escaping Handler)
}

extension RouteRegistering {
    /// Registers GET (and so HEAD) on `pattern`.
    public mutating func get(_ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping Handler) {
        on(.get, pattern, options: options, handler)
    }

    /// Registers POST on `pattern`.
    public mutating func post(_ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping Handler) {
        on(.post, pattern, options: options, handler)
    }

    /// Registers PUT on `pattern`.
    public mutating func put(_ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping Handler) {
        on(.put, pattern, options: options, handler)
    }

    /// Registers PATCH on `pattern`.
    public mutating func patch(_ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping Handler) {
        on(.patch, pattern, options: options, handler)
    }

    /// Registers DELETE on `pattern`.
    public mutating func delete(_ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping Handler) {
        on(.delete, pattern, options: options, handler)
    }
}
