import PosixIO

/// A home is private to its owner: testers' tokens, device UDIDs and builds are in it. Everything
/// betactl creates there is 0600 (files) or 0700 (folders); a home made by an older betactl, or
/// loosened by hand, is tightened when it is opened.
public enum HomePermissions {
    /// The mode of every folder betactl creates.
    public static let directoryMode: FileMode = 0o700
    /// The mode of every file betactl creates.
    public static let fileMode: FileMode = 0o600

    /// The paths whose modes are checked on every open; when one is loose the whole home is walked.
    static func checkedPaths(home path: String) -> [String] {
        let database = path + "/" + Home.databaseName
        return [path, database, database + "-wal", database + "-shm", path + "/blobs", Home.cachePath(home: path),
                Home.symbolIndexPath(home: path), path + "/tmp"]
    }

    /// Whether `mode` lets the group or others in.
    static func isLoose(_ mode: FileMode) -> Bool { mode & 0o077 != 0 }

    /// What `tighten` changed.
    struct Tightened: Equatable {
        var files = 0
        var folders = 0
        var isEmpty: Bool { files == 0 && folders == 0 }
    }

    /// Removes group and other access from the home at `path` and everything in it when any of
    /// the usual paths allows it, and says what was changed. Symbolic links are never followed,
    /// so nothing outside the home is touched.
    static func tighten(home path: String) throws(FileSystemError) -> Tightened {
        let loose = checkedPaths(home: path).contains { candidate in
            guard let info = (try? FileSystem.linkStatus(candidate)) ?? nil else { return false }
            return isLoose(info.permissions) && (info.kind == .directory || info.kind == .regularFile)
        }
        var changed = Tightened()
        if loose { try tightenTree(path, depth: 0, into: &changed) }
        return changed
    }

    private static func tightenTree(_ path: String, depth: Int, into changed: inout Tightened) throws(FileSystemError) {
        guard let info = (try? FileSystem.linkStatus(path)) ?? nil else { return }
        let isDirectory = info.kind == .directory
        guard isDirectory || info.kind == .regularFile else { return }
        if isLoose(info.permissions) {
            try withFileSystemError("restrict the permissions of") { () throws(SystemCallError) in
                try FileSystem.setPermissions(path, info.permissions & 0o7700)
            }
            if isDirectory { changed.folders += 1 } else { changed.files += 1 }
        }
        // blobs/ab/abcd… is three levels deep, cache/symbols two; a deeper tree is not betactl's.
        if isDirectory && depth < 4 {
            for name in try directoryEntries(path) { try tightenTree(path + "/" + name, depth: depth + 1, into: &changed) }
        }
    }

    /// The one-line notice for what was tightened in the home at `path`.
    static func notice(_ changed: Tightened, home path: String) -> String {
        var parts: [String] = []
        if changed.files > 0 { parts.append("\(changed.files) file\(changed.files == 1 ? "" : "s")") }
        if changed.folders > 0 { parts.append("\(changed.folders) folder\(changed.folders == 1 ? "" : "s")") }
        return "other users could read \(parts.joined(separator: " and ")) in \(path); betactl made them private "
            + "(folders 0700, files 0600), as it keeps its whole home"
    }
}
