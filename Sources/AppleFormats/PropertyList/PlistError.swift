/// Why bytes could not be read as a property list.
public struct PlistError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String

    /// Creates an error with a full sentence.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
