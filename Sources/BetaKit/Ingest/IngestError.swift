import AppleFormats

/// Why a build or symbols input could not be read at all.
///
/// Problems that still leave a usable picture of the build (a missing profile,
/// an unsigned executable) are not errors: they are `IngestProblem`s, so that
/// release validation can list every reason at once.
public enum IngestError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// The path does not exist.
    case missing(String)
    /// The input is neither an .ipa, an .xcarchive nor a .dSYM.
    case unrecognized(path: String, reason: String)
    /// The zip container is unreadable or hostile.
    case archive(path: String, ZipError)
    /// The archive holds no app bundle.
    case noAppBundle(path: String, detail: String)
    /// A file could not be read.
    case fileSystem(FileSystemError)

    /// A sentence naming the input, the problem and the fix.
    public var description: String {
        switch self {
        case let .missing(path):
            return "\(path) does not exist; pass the path of an .ipa, an .xcarchive or a .dSYM"
        case let .unrecognized(path, reason):
            return "\(path) is not an .ipa, .xcarchive or .dSYM: \(reason)"
        case let .archive(path, error):
            return "\(path): \(error)"
        case let .noAppBundle(path, detail):
            return "\(path) contains no app bundle (\(detail)); an .ipa must hold Payload/<Name>.app, so export the build again from Xcode (Product > Archive > Distribute App > Ad Hoc)"
        case let .fileSystem(error):
            return error.description
        }
    }

    /// Unreadable inputs are invalid input; I/O failures are failures.
    public var category: ErrorCategory {
        if case .fileSystem = self { return .failed }
        return .invalidInput
    }
}

/// Something wrong inside an otherwise readable build, reported by release validation.
public struct IngestProblem: Sendable, Equatable, CustomStringConvertible {
    /// The bundle-relative path the problem concerns.
    public var path: String
    /// What is wrong and what to do.
    public var message: String
    /// Whether it is about the bundle's embedded.mobileprovision (missing or unreadable), which
    /// a profile given by hand replaces.
    public var isAboutTheProfile: Bool

    /// Creates a problem.
    public init(path: String, message: String, isAboutTheProfile: Bool = false) {
        self.path = path
        self.message = message
        self.isAboutTheProfile = isAboutTheProfile
    }

    /// "path: message".
    public var description: String { "\(path): \(message)" }
}
