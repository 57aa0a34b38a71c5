/// What an API token (and a dashboard session opened with it) may do. Scopes are ordered: each
/// includes the ones below it.
public enum TokenScope: String, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// Lists and pages: testers, devices, profiles, releases, symbols, settings.
    case read
    /// Also changes: releases, symbols, testers, devices and profiles (what CI uploads need).
    case write
    /// Also tokens and settings.
    case admin

    /// Whether a token of this scope may do what `required` allows.
    public func allows(_ required: TokenScope) -> Bool { self >= required }

    /// `read` < `write` < `admin`.
    public static func < (lhs: TokenScope, rhs: TokenScope) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .read: 0
        case .write: 1
        case .admin: 2
        }
    }

    /// The scope's name.
    public var description: String { rawValue }
}
