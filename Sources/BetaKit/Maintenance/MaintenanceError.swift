/// Why a backup or restore was refused.
public enum MaintenanceError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// Something other than an empty folder is already at the destination.
    case destinationNotEmpty(path: String)
    /// The destination lies inside the home being copied.
    case destinationInsideHome(path: String, home: String)
    /// Restoring would replace a home that is in use.
    case liveHome(path: String)
    /// The restore target holds files that are not a betactl home.
    case notAHome(path: String)
    /// The folder to restore from is not a backup (a betactl home).
    case notABackup(path: String)
    /// The backup to restore failed verification.
    case damagedBackup(path: String, problems: Int)
    /// The SQLite online backup did not complete.
    case databaseCopyFailed(path: String, reason: String)

    /// A sentence naming the path and the fix.
    public var description: String {
        switch self {
        case let .destinationNotEmpty(path):
            return "\(path) already exists and is not an empty folder; give a new or empty folder for the backup"
        case let .destinationInsideHome(path, home):
            return "\(path) is inside the home \(home) it would copy; put the backup outside it, ideally on another disk"
        case let .liveHome(path):
            return "\(path) holds a betactl home; stop any server using it and pass --force to replace it "
                + "(the current home is kept beside it, renamed)"
        case let .notAHome(path):
            return "\(path) holds files that are not a betactl home; restore into a new or empty folder with --home"
        case let .notABackup(path):
            return "\(path) is not a betactl backup (it holds no betactl.sqlite); give a folder made by `betactl backup`"
        case let .damagedBackup(path, problems):
            return "the backup at \(path) has \(problems) problem\(problems == 1 ? "" : "s"); see them with "
                + "`betactl verify --home \(path)` and restore from an intact backup"
        case let .databaseCopyFailed(path, reason):
            return "cannot copy the database to \(path): \(reason); check free space and retry"
        }
    }

    /// A bad destination or a home in use is a refusal; a failed copy is a failure.
    public var category: ErrorCategory {
        if case .databaseCopyFailed = self { return .failed }
        return .refused
    }
}
