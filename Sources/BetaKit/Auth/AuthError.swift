/// Why a token or session operation was refused.
public enum AuthError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The token name is empty, too long or uses other characters than letters, digits, `.`, `-`, `_`.
    case invalidName(String)
    /// A live token already has the name.
    case duplicateName(String)
    /// No live token has the name.
    case unknownToken(String)
    /// The scope is not read, write or admin.
    case invalidScope(String)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .invalidName(name):
            return "token name \"\(name)\" is not allowed; use 1 to 64 letters, digits, dots, dashes or underscores, e.g. ci or ann-laptop"
        case let .duplicateName(name):
            return "a token named \(name) already exists; choose another name, or revoke it first with `betactl token revoke \(name)`"
        case let .unknownToken(name):
            return "no live token is named \"\(name)\"; see `betactl token list` for the names"
        case let .invalidScope(scope):
            return "\"\(scope)\" is not a token scope; use read, write or admin"
        }
    }

    /// Malformed names and scopes are invalid input; the rest are refusals.
    public var category: ErrorCategory {
        switch self {
        case .invalidName, .invalidScope: .invalidInput
        case .duplicateName, .unknownToken: .refused
        }
    }
}
