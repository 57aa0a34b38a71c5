import AppleFormats
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// An input that is a directory: an .xcarchive or a .dSYM bundle on disk.
///
/// Paths are reported with the directory's own name first (`Beta.xcarchive/Products/…`),
/// the same shape as the zipped form, so one walker handles both.
final class DirectoryBundleSource: BundleSource {
    let root: String
    let parent: String
    let files: [String: UInt64]
    /// Every symbolic link, by the same kind of path, and its target (never followed).
    let symbolicLinks: [String: String]

    init(root: String) throws {
        let trimmed = root.withoutTrailingSlashes
        self.root = trimmed
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        self.parent = String(trimmed.dropLast(name.count))
        var files: [String: UInt64] = [:]
        var links: [String: String] = [:]
        guard FileKind(path: trimmed) == .directory else {
            throw FileSystemError(operation: "list", path: trimmed, errno: Errno.noSuchFile)
        }
        try Self.collectRegularFiles(in: trimmed, prefix: name, into: &files, links: &links)
        self.files = files
        self.symbolicLinks = links
    }

    /// Records the size of every regular file below `directory` under `prefix/relative path`, and
    /// the target of every symbolic link. Links are never followed: that could read outside the input.
    static func collectRegularFiles(in directory: String, prefix: String, into files: inout [String: UInt64],
                                    links: inout [String: String]) throws {
        for name in try directoryEntries(directory) {
            guard let info = (try? FileSystem.linkStatus(directory + "/" + name)) ?? nil else { continue }
            switch info.kind {
            case .regularFile: files[prefix + "/" + name] = UInt64(max(0, info.size))
            case .directory: try collectRegularFiles(in: directory + "/" + name, prefix: prefix + "/" + name, into: &files, links: &links)
            case .symbolicLink:
                if let target = try? FileSystem.linkTarget(directory + "/" + name), !target.isEmpty { links[prefix + "/" + name] = target }
            default: continue
            }
        }
    }

    func contents(of path: String, maxSize: Int) throws -> [UInt8] {
        guard let size = files[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: Errno.noSuchFile) }
        guard size <= UInt64(maxSize) else {
            throw ZipError.limitExceeded("\"\(path)\" is \(size) bytes, more than the \(maxSize) bytes allowed for this kind of file")
        }
        let mapped = try MappedFile(path: parent + path)
        return mapped.withBytes { Array($0) }
    }

    func materialize(_ path: String) throws -> (file: MappedFile, extractedPath: String?) {
        (try MappedFile(path: parent + path), nil)
    }

    func verifyRemaining(progress: IngestProgressHandler?) throws {}
}
