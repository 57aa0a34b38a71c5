import PosixIO

/// Whole-file replacement that a reader never sees half done.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically: into a temporary file beside it (mode 0600, so secrets
    /// are never readable by others, even for a moment), fsync'd, then renamed over `path`. A
    /// reader sees the old file or the whole new one; on failure the temporary file is removed.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let temporary = path + ".betactl-\(CurrentProcess.id).tmp"
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate], permissions: 0o600)
        } catch {
            throw FileSystemError(error, operation: "create")
        }
        do {
            try file.writeAll(bytes)
            try file.sync()
        } catch {
            try? file.close()
            _ = try? FileSystem.removeFile(temporary)
            throw FileSystemError(error, operation: "write")
        }
        do {
            try file.close()
            try FileSystem.rename(temporary, to: path)
        } catch {
            _ = try? FileSystem.removeFile(temporary)
            throw FileSystemError(operation: error.operation == "close" ? "write" : "rename", path: error.operation == "close" ? temporary : path,
                                  errno: error.errno)
        }
    }
}
