import AppleFormats
import PosixIO

/// The entries of a zipped input (.ipa, zipped .xcarchive), for signature verification. Small
/// entries are inflated in memory; large ones (executables) are extracted to the work
/// directory, mapped, and removed after use; resources are hashed as they inflate (`withChunks`).
struct ZipSignatureFiles: CodeSignatureFileAccess {
    let archive: ZipArchive
    let workDirectory: String
    let entries: [String: CodeSignatureFileEntry]
    private let byName: [String: ZipEntry]
    /// SHA-256s the caller computed from these very bytes (see `CodeSignatureFileAccess.knownSHA256`).
    var knownSHA256: [String: [UInt8]] = [:]
    /// Told the path of every entry read whole, and so CRC-checked.
    var onRead: (@Sendable (String) -> Void)?
    /// Entries up to this size are read into memory.
    static let inMemoryLimit: UInt64 = 8 << 20
    /// A symbolic link's target is a path: anything longer is not one.
    static let maxLinkTarget = 4096

    init(archive: ZipArchive, workDirectory: String) {
        self.archive = archive
        self.workDirectory = workDirectory
        var entries: [String: CodeSignatureFileEntry] = [:]
        var byName: [String: ZipEntry] = [:]
        for entry in archive.entries where !entry.isDirectory && !entry.name.hasPrefix("__MACOSX/") {
            byName[entry.name] = entry
            if entry.isSymbolicLink {
                let target = (try? archive.contents(of: entry, maxSize: Self.maxLinkTarget)).map { String(decoding: $0, as: UTF8.self) }
                entries[entry.name] = .symbolicLink(target: target ?? "")
            } else {
                entries[entry.name] = .file(size: entry.uncompressedSize)
            }
        }
        self.entries = entries
        self.byName = byName
    }

    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let entry = byName[path], case .file = entries[path] else {
            throw ZipError.malformed("\"\(path)\" is not a file in the archive")
        }
        if entry.uncompressedSize <= Self.inMemoryLimit {
            let bytes = try archive.contents(of: entry, maxSize: Int(Self.inMemoryLimit))
            onRead?(path)
            return try bytes.withUnsafeBytes { try body($0) }
        }
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let target = "\(workDirectory)/\(UInt64.random(in: 0 ... UInt64.max))-\(name)"
        let fd = try FileDescriptor.createNew(target)
        defer { _ = try? FileSystem.removeFile(target) }
        do {
            defer { try? fd.close() }
            try archive.extract(entry) { chunk in try FileDigest.writeAll(fd, chunk, path: target) }
        }
        onRead?(path)
        let mapped = try MappedFile(path: target)
        return try mapped.withBytes { bytes in try body(bytes) }
    }

    /// Inflates the entry chunk by chunk (CRC-checked), holding no more than a chunk.
    func withChunks(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = byName[path], case .file = entries[path] else {
            throw ZipError.malformed("\"\(path)\" is not a file in the archive")
        }
        try archive.extract(entry) { chunk in try body(chunk) }
        onRead?(path)
    }

    func knownSHA256(of path: String) -> [UInt8]? { knownSHA256[path] }
}
