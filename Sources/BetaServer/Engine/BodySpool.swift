#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names of the temporary files large request bodies are spooled to, and the start-up sweep of
/// those a killed server left behind (a running server deletes its own when a request ends).
enum BodySpool {
    /// The file name prefix unless the configuration names another; the process id and mkstemp's
    /// random suffix follow.
    static let defaultPrefix = "http-body-"

    /// The mkstemp template for a body spooled by this process into `directory`.
    static func template(in directory: String, prefix: String = defaultPrefix) -> String { "\(directory)/\(prefix)\(getpid())-XXXXXX" }

    /// Deletes spool files in `directory` whose process is gone; returns how many were deleted.
    ///
    /// A file named by an older server without a process id is deleted once it is an hour old:
    /// no request body takes that long to arrive and be handled.
    @discardableResult
    static func sweep(directory: String, prefix: String = defaultPrefix, now: time_t = time(nil)) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        var removed = 0
        while let entry = readdir(stream) {
            // Read in place: copying `entry.pointee.d_name` copies 256 bytes, past the end of a
            // short record that sits at the end of readdir's buffer.
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            guard name.hasPrefix(prefix) else { continue }
            let path = directory + "/" + name
            if isAbandoned(name: name, prefix: prefix, path: path, now: now), unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    static func isAbandoned(name: String, prefix: String, path: String, now: time_t) -> Bool {
        let rest = name.dropFirst(prefix.count)
        let parts = rest.split(separator: "-", maxSplits: 1)
        if parts.count == 2, let pid = pid_t(parts[0]), pid > 0 {
            return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        #if canImport(Darwin)
        let modified = info.st_mtimespec.tv_sec
        #else
        let modified = info.st_mtim.tv_sec
        #endif
        return now - modified > 3600
    }
}
