import PosixIO

/// The names in the folder at `path`, in the order the system lists them, without "." and "..".
public func directoryEntries(_ path: String) throws(FileSystemError) -> [String] {
    do {
        return try FileSystem.directoryEntries(path)
    } catch {
        throw FileSystemError(error, operation: "list")
    }
}
