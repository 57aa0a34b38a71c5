import PosixIO

extension WebAssets {
    /// Whether `path` itself is a symbolic link (not followed).
    static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileSystem.linkStatus(path))??.kind == .symbolicLink
    }

    /// `path` with every symbolic link and `.`/`..` resolved, or nil when it leads nowhere.
    static func resolvedPath(_ path: String) -> String? { FileSystem.resolvedPath(path) }
}
