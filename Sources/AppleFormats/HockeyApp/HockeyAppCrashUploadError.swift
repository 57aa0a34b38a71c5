/// Why an upload body is not a HockeySDK crash document.
public enum HockeyAppCrashUploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than any upload.
    case tooLarge(size: Int, limit: Int)
    /// Not well-formed XML.
    case notWellFormed(String)
    /// The root element is not `<crashes>`.
    case wrongRoot(String)
    /// `<crashes>` holds no `<crash>`.
    case noCrash
    /// More crashes than clients send.
    case tooManyCrashes(Int, Int)
    /// A required element is missing or empty.
    case missing(String, crash: Int)
    /// A `<uuid>` is not a UUID.
    case invalidUUID(String, crash: Int)

    /// A sentence naming the problem and the fix.
    public var description: String {
        let fix = "have the app send the crash again"
        switch self {
        case let .tooLarge(size, limit):
            return "the HockeySDK crash upload is \(size) bytes, more than the \(limit)-byte limit; it is not a crash upload"
        case let .notWellFormed(detail):
            return "the HockeySDK crash upload is not well-formed XML: \(detail); \(fix)"
        case let .wrongRoot(name):
            return "the XML's root element is <\(name)>, not <crashes>; it is not a HockeySDK crash upload"
        case .noCrash:
            return "the HockeySDK crash upload's <crashes> holds no <crash>; \(fix)"
        case let .tooManyCrashes(count, limit):
            return "the HockeySDK crash upload holds \(count) crashes, more than the \(limit) betactl reads"
        case let .missing(name, crash):
            return "crash \(crash) of the HockeySDK upload has no <\(name)>; \(fix)"
        case let .invalidUUID(text, crash):
            return "crash \(crash) of the HockeySDK upload has the <uuid> \"\(text.prefix(40))\", which is not a UUID; \(fix)"
        }
    }
}
