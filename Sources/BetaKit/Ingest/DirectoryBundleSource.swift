import AppleFormats
import Foundation

/// An input that is a directory: an .xcarchive or a .dSYM bundle on disk.
///
/// Paths are reported with the directory's own name first (`Beta.xcarchive/Products/…`),
/// the same shape as the zipped form, so one walker handles both.
final class DirectoryBundleSource: BundleSource {
    let root: String
    let parent: String
    let files: [String: UInt64]

    init(root: String) throws {
        let trimmed = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.root = trimmed
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        self.parent = String(trimmed.dropLast(name.count))
        var files: [String: UInt64] = [:]
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: trimmed) else {
            throw FileSystemError(operation: "list", path: trimmed, errno: ENOENT)
        }
        while let relative = enumerator.nextObject() as? String {
            let attributes = enumerator.fileAttributes
            // Symbolic links are skipped: following them could read outside the input.
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            let size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
            files[name + "/" + relative] = size
        }
        self.files = files
    }

    func contents(of path: String, maxSize: Int) throws -> [UInt8] {
        guard let size = files[path] else { throw FileSystemError(operation: "open", path: parent + path, errno: ENOENT) }
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
