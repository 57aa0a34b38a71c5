#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// A betactl home: the directory holding the database, the archive and the cache.
///
/// Layout: `betactl.sqlite` (source of truth), `blobs/` (content-addressed
/// archive, never pruned while referenced), `cache/` (derived data such as
/// symbol indexes, safe to delete), `tmp/` (staging for atomic publishes).
public struct Home: Sendable {
    /// The home directory.
    public let path: String
    /// The database.
    public let store: Store
    /// Settings as read when the home was opened.
    public let settings: HomeSettings
    /// A one-line notice when opening found files or folders other users could read and made them
    /// private; nil when the home was already private.
    public let permissionNotice: String?

    /// The database file name inside a home.
    public static let databaseName = "betactl.sqlite"

    /// Where archived blobs live.
    public var blobsPath: String { path + "/blobs" }
    /// Where rebuildable derived data lives.
    public var cachePath: String { Self.cachePath(home: path) }
    /// Where rebuildable derived data lives in the home at `path`, without opening it.
    public static func cachePath(home path: String) -> String { path + "/cache" }
    /// The rebuildable symbol index folder (`cache/symbols`), the one place every command that
    /// builds or reads symbol indexes takes it from.
    public var symbolIndexPath: String { Self.symbolIndexPath(home: path) }
    /// The symbol index folder of the home at `path`, without opening it.
    public static func symbolIndexPath(home path: String) -> String { cachePath(home: path) + "/symbols" }
    /// Where files are staged before being moved into place.
    public var temporaryPath: String { path + "/tmp" }

    /// The home to use: `--home`, else `$BETACTL_HOME`, else `~/.betactl`.
    public static func resolvePath(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return absolute(explicit, environment: environment) }
        if let fromEnvironment = environment["BETACTL_HOME"], !fromEnvironment.isEmpty {
            return absolute(fromEnvironment, environment: environment)
        }
        let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return (userHome.hasSuffix("/") ? userHome : userHome + "/") + ".betactl"
    }

    static func absolute(_ path: String, environment: [String: String]) -> String {
        var result = path
        if result == "~" || result.hasPrefix("~/"), let home = environment["HOME"] {
            result = home + result.dropFirst()
        }
        if !result.hasPrefix("/") {
            result = FileManager.default.currentDirectoryPath + "/" + result
        }
        return result.withoutTrailingSlashes
    }

    /// Fails as `open` would when `path` is not an initialised home, without opening the
    /// database (for commands that may not need it, such as `symbolicate --dsym`).
    public static func checkInitialised(at path: String) throws(HomeError) {
        let kind = FileKind(path: path)
        guard kind != .missing else { throw HomeError.missing(path: path) }
        guard kind == .directory, FileKind(path: path + "/" + databaseName) == .regularFile else {
            throw HomeError.notInitialised(path: path)
        }
    }

    /// Opens an initialised home, or explains how to create one.
    /// Loose permissions (an older betactl, a copy made by hand) are tightened first, before the
    /// database opens, and `permissionNotice` says so.
    public static func open(at path: String) throws -> Home {
        try checkInitialised(at: path)
        let tightened = try HomePermissions.tighten(home: path)
        let databasePath = path + "/" + databaseName
        let store = try Store(path: databasePath, create: false)
        guard let settings = try store.loadSettings() else { throw HomeError.notInitialised(path: path) }
        return Home(path: path, store: store, settings: settings,
                    permissionNotice: tightened.isEmpty ? nil : HomePermissions.notice(tightened, home: path))
    }

    /// What `initialise` did.
    public struct InitResult: Sendable {
        /// The opened home.
        public var home: Home
        /// True when the home was created by this call.
        public var created: Bool
        /// Settings before this call (nil when created).
        public var previous: HomeSettings?
    }

    /// Creates the home at `path`, or changes only the given settings of an existing one.
    public static func initialise(at path: String, change: HomeSettingsChange, now: Date) throws -> InitResult {
        let change = try change.validated()
        let fm = FileManager.default
        let databasePath = path + "/" + databaseName
        let kind = FileKind(path: path)
        if kind != .missing {
            guard kind == .directory else { throw HomeError.notInitialised(path: path) }
            if FileKind(path: databasePath) == .missing {
                let contents = (try? fm.contentsOfDirectory(atPath: path)) ?? []
                guard contents.allSatisfy({ ["blobs", "cache", "tmp"].contains($0) || $0.hasPrefix(".") }) else {
                    throw InitError.directoryNotEmpty(path: path, entries: contents.count)
                }
            }
        }
        for directory in [path, path + "/blobs", path + "/cache", path + "/tmp"] {
            do {
                try fm.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                       attributes: [.posixPermissions: Int(HomePermissions.directoryMode)])
            } catch {
                throw FileSystemError(operation: "create directory", path: directory, errno: Errno.current == 0 ? Errno.accessDenied : Errno.current)
            }
        }
        let tightened = try HomePermissions.tighten(home: path)
        let store = try Store(path: databasePath, create: true)
        let (before, after) = try store.applySettings(change, now: now)
        let notice = tightened.isEmpty ? nil : HomePermissions.notice(tightened, home: path)
        return InitResult(home: Home(path: path, store: store, settings: after, permissionNotice: notice),
                          created: before == nil, previous: before)
    }
}

/// Why `init` refused to use a directory.
public enum InitError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// The directory has unrelated files in it.
    case directoryNotEmpty(path: String, entries: Int)

    /// A sentence naming the directory and the fix.
    public var description: String {
        switch self {
        case let .directoryNotEmpty(path, entries):
            return "\(path) already holds \(entries) files that are not a betactl home; choose a new or empty directory with --home"
        }
    }

    /// Always a refusal.
    public var category: ErrorCategory { .refused }
}
