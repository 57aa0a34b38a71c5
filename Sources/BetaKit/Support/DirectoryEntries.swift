#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in the folder at `path`, in the order the system lists them, without "." and "..".
public func directoryEntries(_ path: String) throws(FileSystemError) -> [String] {
    guard let stream = opendir(path) else { throw FileSystemError(operation: "list", path: path, errno: errno) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let name = directoryEntryName(entry)
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The name of a `readdir` entry, read in place. glibc sizes each record to its name
/// (`d_reclen`), so copying the whole 256-byte `d_name` field (`entry.pointee.d_name`) can read
/// past the end of its buffer and crash when the next page is unmapped.
public func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
}
