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
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
