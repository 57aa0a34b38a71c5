#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// The names in the directory at `path`, in the order the system lists them, without "." and "..".
    public static func directoryEntries(_ path: String) throws(SystemCallError) -> [String] {
        var stream: OpaquePointer?
        while true {
            stream = opendir(path)
            if stream != nil { break }
            let error = SystemCallError.current("list", path)
            if error.errno != EINTR { throw error }
        }
        guard let stream else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = entryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The name of a `readdir` entry, read in place. glibc sizes each record to its name
    /// (`d_reclen`), so copying the whole 256-byte `d_name` field (`entry.pointee.d_name`) can read
    /// past the end of its buffer and crash when the next page is unmapped.
    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// Removes the empty directory at `path`; true if there was one.
    @discardableResult
    public static func removeDirectory(_ path: String) throws(SystemCallError) -> Bool {
        if rmdir(path) == 0 { return true }
        let error = SystemCallError.current("remove the directory", path)
        if error.isNotFound { return false }
        throw error
    }

    /// Creates a new directory from an `mkdtemp` template (ending in `XXXXXX`) with mode 0700 and
    /// returns its path.
    public static func makeTemporaryDirectory(template: String) throws(SystemCallError) -> String {
        var bytes = Array(template.utf8CString)
        while true {
            let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkdtemp($0) != nil } ?? false }
            if made { return bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? template } }
            let error = SystemCallError.current("create a temporary directory", template)
            if error.errno != EINTR { throw error }
        }
    }

    /// Sets the permission bits of `path` (`chmod`, following symbolic links).
    public static func setPermissions(_ path: String, _ permissions: mode_t) throws(SystemCallError) {
        while chmod(path, permissions) != 0 {
            let error = SystemCallError.current("change the permissions of", path)
            if error.errno != EINTR { throw error }
        }
    }
}
