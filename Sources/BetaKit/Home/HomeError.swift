/// Why a home could not be created, opened or changed.
public enum HomeError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// No directory at the path.
    case missing(path: String)
    /// A directory or file exists but holds no betactl database.
    case notInitialised(path: String)
    /// The team id is not ten letters or digits.
    case invalidTeamID(String)
    /// The membership renewal date is not `YYYY-MM-DD`.
    case invalidRenewalDate(String)
    /// The public URL cannot be used in links.
    case invalidPublicURL(String, reason: String)
    /// The brand name is empty, too long or holds control characters.
    case invalidBrandName(String)
    /// The brand colour is not a hex colour.
    case invalidBrandColor(String)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .missing(path):
            return "no betactl home at \(path); create one with `betactl init` (choose another place with --home DIR or BETACTL_HOME)"
        case let .notInitialised(path):
            return "\(path) is not an initialised betactl home (it has no betactl.sqlite); run `betactl init --home \(path)` to set it up"
        case let .invalidTeamID(value):
            return "team id \"\(value)\" is not valid: it must be the 10 letters and digits shown in Apple's Membership details, e.g. --team-id ABCDE12345"
        case let .invalidRenewalDate(value):
            return "membership renewal date \"\(value)\" is not a valid YYYY-MM-DD date, e.g. --membership-renewal 2027-03-01"
        case let .invalidPublicURL(value, reason):
            return "public URL \"\(value)\" cannot be used: \(reason), e.g. --public-url https://beta.example.com"
        case let .invalidBrandName(value):
            return "brand name \"\(value)\" cannot be used: it must be 1 to 60 characters on one line, e.g. --brand-name \"Acme Beta\""
        case let .invalidBrandColor(value):
            return "brand colour \"\(value)\" is not a hex colour; give #rrggbb or #rgb, e.g. --brand-color \"#0a66c2\""
        }
    }

    /// Creating or changing settings with bad values is invalid input; a missing home is a refusal.
    public var category: ErrorCategory {
        switch self {
        case .missing, .notInitialised: .refused
        default: .invalidInput
        }
    }
}
