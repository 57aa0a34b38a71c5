/// One header field.
public struct HTTPHeaderField: Sendable, Equatable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// A field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
