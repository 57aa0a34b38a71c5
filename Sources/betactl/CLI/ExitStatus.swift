import AppleFormats
import BetaKit

/// Process exit statuses, following sysexits(3) where it has a name for the case.
enum ExitStatus: Int32 {
    /// Success.
    case success = 0
    /// Refused or failed.
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The input data was wrong: a bad UDID, a malformed file (EX_DATAERR).
    case dataError = 65

    /// The status for an error thrown by a command.
    static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case is UsageError: return .usage
        case is DeviceIdentifierError, is DeviceListError: return .dataError
        case let categorized as CategorizedError:
            return categorized.category == .invalidInput ? .dataError : .failure
        default: return .failure
        }
    }
}

/// An error whose message is already complete; used for CLI-level refusals.
struct CommandFailure: Error, CustomStringConvertible, CategorizedError {
    /// The message.
    var description: String
    /// Its category.
    var category: ErrorCategory = .refused
}
