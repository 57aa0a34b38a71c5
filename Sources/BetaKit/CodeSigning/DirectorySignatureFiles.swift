import AppleFormats
import PosixIO

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
        default: throw FileSystemError(operation: "open", path: trimmed, errno: Errno.noSuchFile)
        }
        self.entries = entries
    }

    private static func collect(in directory: String, prefix: String, into entries: inout [String: CodeSignatureFileEntry], depth: Int) throws {
        // Bundles nest a few levels; a deeper tree is a loop or hostile input.
        guard depth < 64 else { return }
        for name in try directoryEntries(directory) {
            let full = directory + "/" + name
            guard let info = (try? FileSystem.linkStatus(full)) ?? nil else { continue }
            switch info.kind {
            case .regularFile: entries[prefix + "/" + name] = .file(size: UInt64(max(0, info.size)))
            case .directory: try collect(in: full, prefix: prefix + "/" + name, into: &entries, depth: depth + 1)
            case .symbolicLink:
                if let target = try? FileSystem.linkTarget(full) {
                    entries[prefix + "/" + name] = .symbolicLink(target: target)
                }
            default: continue
            }
        }
    }

    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard case .file = entries[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: Errno.noSuchFile) }
        let mapped = try MappedFile(path: parent + path)
        return try mapped.withBytes { bytes in try body(bytes) }
    }
}
