#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a provisioning step failed: worth another run later (Apple unreachable, 429, 5xx, a busy
/// database), or not until someone fixes something (no slot left, the certificate expired, the
/// profile cannot allow an entitlement, no code-signing identity): then a sentence naming the
/// problem and the fix.
enum ProvisioningFailure: Error, Sendable, CustomStringConvertible {
    /// Try again later; `retryAfter` is the wait Apple asked for, if any.
    case transient(String, retryAfter: TimeInterval?)
    /// Stop: the sentence names the problem and the fix.
    case permanent(String)

    var description: String {
        switch self {
        case let .transient(text, _), let .permanent(text): text
        }
    }

    /// Sorts any error a step throws.
    static func classify(_ error: any Error) -> ProvisioningFailure {
        switch error {
        case let failure as ProvisioningFailure:
            return failure
        case let apple as AppStoreConnectError:
            switch apple {
            case .transport, .unreadableAnswer:
                return .transient(apple.description, retryAfter: nil)
            case let .rateLimited(retryAfter):
                return .transient(apple.description, retryAfter: retryAfter.flatMap { Double($0.trimmed) })
            case let .refused(_, status, _) where status >= 500 || status == 429:
                return .transient(apple.description, retryAfter: nil)
            default:
                return .permanent(apple.description)
            }
        case let resign as ResignError:
            return .permanent(resign.description)
        case let sqlite as SQLiteError where sqlite.isBusy:
            return .transient(sqlite.description, retryAfter: nil)
        case let categorized as any CategorizedError where categorized.category != .failed:
            return .permanent(String(describing: categorized))
        default:
            // I/O and the like: worth a few more runs; the attempt limit stops it.
            return .transient(String(describing: error), retryAfter: nil)
        }
    }
}
