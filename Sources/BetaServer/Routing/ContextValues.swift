/// Typed values a middleware hands on to the handlers after it, keyed by their type: an auth
/// middleware stores the principal it resolved, and handlers read it back typed instead of
/// resolving it again.
///
/// ```swift
/// struct AccountAuth: Middleware {
///     func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
///         var context = context
///         context.values[Account.self] = try lookUp(request)
///         return try await next(request, context)
///     }
/// }
/// // in a handler of the group:
/// let account = try context.require(Account.self)
/// ```
public struct ContextValues: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    /// An empty set of values.
    public init() {}

    /// The value stored for `type`, nil if no middleware stored one.
    public subscript<Value: Sendable>(_ type: Value.Type) -> Value? {
        get { storage[ObjectIdentifier(type)] as? Value }
        set { storage[ObjectIdentifier(type)] = newValue }
    }
}

extension Context {
    /// The value a middleware stored for `type`. A route whose group lacks that middleware is a
    /// wiring mistake, answered 500 naming the type.
    public func require<Value: Sendable>(_ type: Value.Type) throws(HTTPError) -> Value {
        guard let value = values[type] else {
            throw HTTPError(.internalServerError, "no middleware stored a \(Value.self) for this route; register it in the group whose middleware resolves one")
        }
        return value
    }
}
