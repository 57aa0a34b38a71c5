/// A type that can stand as a template's data: a page model adopts it to say which fields its
/// templates see, and `MustacheLibrary.render(_:_:)` accepts it directly.
///
/// ```swift
/// struct TesterPage: MustacheRepresentable {
///     var name: String
///     var releases: [ReleaseRow]          // ReleaseRow: MustacheRepresentable
///     var mustacheValue: MustacheValue { ["name": .init(name), "releases": .init(releases)] }
/// }
/// ```
public protocol MustacheRepresentable {
    /// The value templates see for this instance.
    var mustacheValue: MustacheValue { get }
}

extension MustacheValue: MustacheRepresentable {
    /// The value itself.
    public var mustacheValue: MustacheValue { self }

    /// The value of anything representable, e.g. `.init(model.releases)`.
    public init(_ representable: some MustacheRepresentable) {
        self = representable.mustacheValue
    }
}

extension String: MustacheRepresentable {
    /// The string.
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Substring: MustacheRepresentable {
    /// The substring as a string.
    public var mustacheValue: MustacheValue { .string(String(self)) }
}

extension Int: MustacheRepresentable {
    /// The integer.
    public var mustacheValue: MustacheValue { .int(self) }
}

extension Bool: MustacheRepresentable {
    /// The boolean.
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheRepresentable where Wrapped: MustacheRepresentable {
    /// The wrapped value, or `null` for `nil` (which hides a section).
    public var mustacheValue: MustacheValue { map(\.mustacheValue) ?? .null }
}

extension Array: MustacheRepresentable where Element: MustacheRepresentable {
    /// A list of the elements' values.
    public var mustacheValue: MustacheValue { .list(map(\.mustacheValue)) }
}

extension Dictionary: MustacheRepresentable where Key == String, Value: MustacheRepresentable {
    /// An object of the values.
    public var mustacheValue: MustacheValue { .object(mapValues(\.mustacheValue)) }
}
