import AppleFormats

/// Why a file could not be inspected.
public enum InspectionError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// Nothing is at the path.
    case missing(path: String)
    /// The bytes are no kind betactl knows; `evidence` says what they look like.
    case unrecognized(path: String, evidence: String)
    /// The file is of a known kind but damaged; `detail` says what is damaged.
    case damaged(path: String, kind: AppleFileKind, detail: String)
    /// The file is too large for its kind.
    case tooLarge(path: String, size: UInt64, limit: Int)
    /// The file could not be read.
    case fileSystem(FileSystemError)

    /// The kind, when the file was recognised.
    public var kind: AppleFileKind? {
        if case let .damaged(_, kind, _) = self { return kind }
        return nil
    }

    /// A sentence naming the file, what it is or looks like, and what is wrong.
    public var description: String {
        switch self {
        case let .missing(path):
            return "\(path): no such file or folder; check the path"
        case let .unrecognized(path, evidence):
            return "\(path) is not a file betactl knows: it is \(evidence); pass a profile, an .ipa, .xcarchive, .app, .dSYM, Mach-O, crash or diagnostic report, .mobileconfig, enrolment reply, device list or plist"
        case let .damaged(path, kind, detail):
            return "\(path) is a damaged \(kind.rawValue): \(detail)"
        case let .tooLarge(path, size, limit):
            return "\(path) is \(size) bytes, larger than the \(limit)-byte limit for files betactl reads whole; check that it is the right file"
        case let .fileSystem(error):
            return error.description
        }
    }

    /// Bad or unknown input is invalid input (exit 65); a file that cannot be read is a failure,
    /// unless it is not a regular file at all.
    public var category: ErrorCategory {
        if case let .fileSystem(error) = self { return error.category }
        return .invalidInput
    }
}
