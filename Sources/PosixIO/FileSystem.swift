#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on paths, each wrapped once with `EINTR` handling and a `SystemCallError` naming the path.
public enum FileSystem {
    /// `stat` of `path`, following symbolic links; nil when nothing is there.
    public static func status(_ path: String) throws(SystemCallError) -> FileMetadata? {
        var info = stat()
        if stat(path, &info) == 0 { return FileMetadata(info) }
        let error = SystemCallError.current("stat", path)
        if error.isNotFound { return nil }
        throw error
    }

    /// `lstat` of `path` (a symbolic link is reported as one); nil when nothing is there.
    public static func linkStatus(_ path: String) throws(SystemCallError) -> FileMetadata? {
        var info = stat()
        if lstat(path, &info) == 0 { return FileMetadata(info) }
        let error = SystemCallError.current("stat", path)
        if error.isNotFound { return nil }
        throw error
    }

    /// `path` with every symbolic link and `.`/`..` resolved (`realpath`), or nil when it leads nowhere.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Renames `source` to `destination` atomically (same file system).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        guard cRename(source, destination) == 0 else { throw .current("rename \(source) to", destination) }
    }

    /// Removes the file at `path`; true if there was one.
    @discardableResult
    public static func removeFile(_ path: String) throws(SystemCallError) -> Bool {
        if unlink(path) == 0 { return true }
        let error = SystemCallError.current("remove", path)
        if error.isNotFound { return false }
        throw error
    }

    /// Creates a new file from an `mkstemp` template (ending in `XXXXXX`) with mode 0600; returns it
    /// open for writing, with the path chosen.
    public static func makeTemporaryFile(template: String) throws(SystemCallError) -> FileDescriptor {
        var bytes = Array(template.utf8CString)
        while true {
            let fd = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            let path = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? template }
            if fd >= 0 { return FileDescriptor(rawValue: fd, path: path) }
            let error = SystemCallError.current("create a temporary file", template)
            if error.errno != EINTR { throw error }
        }
    }

    /// Creates directory `path` with `permissions`; true if it was created, false if one was there.
    @discardableResult
    public static func makeDirectory(_ path: String, permissions: mode_t = 0o755) throws(SystemCallError) -> Bool {
        if mkdir(path, permissions) == 0 { return true }
        let error = SystemCallError.current("create the directory", path)
        if error.errno == EEXIST, (try? status(path))??.kind == .directory { return false }
        throw error
    }

    /// Where the symbolic link at `path` points.
    public static func linkTarget(_ path: String) throws(SystemCallError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .current("read the link", path) }
        return String(decoding: buffer[0 ..< count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates a hard link at `path` to the existing file `existing`.
    public static func makeHardLink(_ path: String, to existing: String) throws(SystemCallError) {
        guard link(existing, path) == 0 else { throw .current("link", path) }
    }

    /// Creates a symbolic link at `path` pointing to `target`.
    public static func makeSymbolicLink(_ path: String, to target: String) throws(SystemCallError) {
        guard symlink(target, path) == 0 else { throw .current("create the link", path) }
    }
}

#if canImport(Glibc)
private let cRename = Glibc.rename
#elseif canImport(Darwin)
private let cRename = Darwin.rename
#endif
