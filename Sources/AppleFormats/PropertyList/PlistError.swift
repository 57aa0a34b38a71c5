/// Why bytes could not be read as a property list.
public struct PlistError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of problem, for callers that answer some differently.
    public enum Kind: Equatable, Sendable {
        /// The bytes are not a well-formed property list of the supported model.
        case malformed
        /// Arrays and dictionaries nest `depth` levels deep, more than the `limit` a reader allows
        /// (`PlistValue.maximumNesting`): only hostile input nests so deep.
        case nestedTooDeep(depth: Int, limit: Int)
    }

    /// What was wrong.
    public var reason: String
    /// The kind of problem.
    public var kind: Kind

    /// Creates an error with a full sentence.
    public init(_ reason: String, kind: Kind = .malformed) {
        self.reason = reason
        self.kind = kind
    }

    /// Containers nested `depth` levels deep where at most `limit` are allowed.
    static func nestedTooDeep(depth: Int, limit: Int, at place: String) -> PlistError {
        PlistError("\(place)arrays and dictionaries nest \(depth) levels deep, more than the \(limit) allowed; real property lists nest fewer than 20",
                   kind: .nestedTooDeep(depth: depth, limit: limit))
    }

    /// The reason.
    public var description: String { reason }
}
