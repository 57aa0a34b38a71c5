/// The values a route pattern captured (`:id`, `*path`), percent-decoded, read by name as text or
/// as a typed value.
///
/// ```swift
/// router.get("/releases/:id") { request, _ in
///     let id = try request.parameters.require("id", as: Int64.self)   // 404 for /releases/abc
///     …
/// }
/// ```
public struct RouteParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var values: [String: String]

    /// Parameters from a dictionary of name and captured text.
    public init(_ values: [String: String] = [:]) { self.values = values }

    /// Parameters from a literal, for tests.
    public init(dictionaryLiteral elements: (String, String)...) {
        values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The text captured for `name`, if the route has such a parameter.
    public subscript(_ name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// Every parameter by name.
    public var all: [String: String] { values }

    /// The text captured for `name`; a route registered without it is a programming error
    /// answered with 500.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = values[name] else {
            throw HTTPError(.internalServerError, "the route has no parameter '\(name)'")
        }
        return value
    }

    /// The value captured for `name` read as `T` (an integer, say). A value that does not read
    /// as one names nothing that exists, so it is answered 404, naming the parameter and what it
    /// must be.
    public func require<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws(HTTPError) -> T {
        let text = try require(name)
        guard let value = T(text) else {
            throw HTTPError(.notFound, "no such \(name): '\(text.prefix(40))' is not \(Self.describe(type)); check the address")
        }
        return value
    }

    private static func describe<T>(_ type: T.Type) -> String {
        switch type {
        case is any FixedWidthInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        default: "a valid \(T.self)"
        }
    }
}
