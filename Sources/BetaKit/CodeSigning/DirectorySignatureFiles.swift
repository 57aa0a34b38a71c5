#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

/// The files under a directory (an .app, an .xcarchive) or a lone file, for signature
/// verification. Paths start with the directory's own name (`Test.app/Info.plist`), like the
/// zipped form; symbolic links are recorded with their target and never followed.
struct DirectorySignatureFiles: CodeSignatureFileAccess {
    /// The folder holding the input (with a trailing slash, or empty).
    let parent: String
    let entries: [String: CodeSignatureFileEntry]

    init(path: String) throws {
        let trimmed = path.withoutTrailingSlashes
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        parent = String(trimmed.dropLast(name.count))
        var entries: [String: CodeSignatureFileEntry] = [:]
        switch FileKind(path: trimmed) {
        case .directory: try Self.collect(in: trimmed, prefix: name, into: &entries, depth: 0)
        case .regularFile: entries[name] = .file(size: UInt64(try MappedFile(path: trimmed).count))
        default: throw FileSystemError(operation: "open", path: trimmed, errno: ENOENT)
        }
        self.entries = entries
    }

    private static func collect(in directory: String, prefix: String, into entries: inout [String: CodeSignatureFileEntry], depth: Int) throws {
        // Bundles nest a few levels; a deeper tree is a loop or hostile input.
        guard depth < 64 else { return }
        for name in try directoryEntries(directory) {
            let full = directory + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: entries[prefix + "/" + name] = .file(size: UInt64(info.st_size))
            case S_IFDIR: try collect(in: full, prefix: prefix + "/" + name, into: &entries, depth: depth + 1)
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: 4096)
                let length = readlink(full, &buffer, buffer.count - 1)
                if length >= 0 {
                    let target = String(decoding: buffer[0 ..< length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    entries[prefix + "/" + name] = .symbolicLink(target: target)
                }
            default: continue
            }
        }
    }

    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard case .file = entries[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: ENOENT) }
        let mapped = try MappedFile(path: parent + path)
        return try mapped.withBytes { bytes in try body(bytes) }
    }
}
