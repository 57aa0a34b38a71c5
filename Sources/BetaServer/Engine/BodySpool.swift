import PosixIO

/// Names of the temporary files large request bodies are spooled to, and the start-up sweep of
/// those a killed server left behind (a running server deletes its own when a request ends).
enum BodySpool {
    /// The file name prefix unless the configuration names another; the process id and mkstemp's
    /// random suffix follow.
    static let defaultPrefix = "http-body-"

    /// The mkstemp template for a body spooled by this process into `directory`.
    static func template(in directory: String, prefix: String = defaultPrefix) -> String { "\(directory)/\(prefix)\(CurrentProcess.id)-XXXXXX" }

    /// Deletes spool files in `directory` whose process is gone; returns how many were deleted.
    ///
    /// A file named by an older server without a process id is deleted once it is an hour old:
    /// no request body takes that long to arrive and be handled.
    @discardableResult
    static func sweep(directory: String, prefix: String = defaultPrefix, now: Int = WallClock.seconds) -> Int {
        guard let names = try? FileSystem.directoryEntries(directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            let path = directory + "/" + name
            if isAbandoned(name: name, prefix: prefix, path: path, now: now), (try? FileSystem.removeFile(path)) == true { removed += 1 }
        }
        return removed
    }

    static func isAbandoned(name: String, prefix: String, path: String, now: Int) -> Bool {
        let rest = name.dropFirst(prefix.count)
        let parts = rest.split(separator: "-", maxSplits: 1)
        if parts.count == 2, let pid = Int32(parts[0]), pid > 0 {
            return !CurrentProcess.exists(pid)
        }
        guard let info = (try? FileSystem.linkStatus(path)) ?? nil, info.kind == .regularFile else { return false }
        return Int64(now) - info.modified > 3600
    }
}
