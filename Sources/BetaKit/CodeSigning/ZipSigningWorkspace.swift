import AppleFormats
import PosixIO

/// An .ipa being re-signed without unpacking it: files are read (and hashed) straight from the
/// archive, what the signer writes (executables, CodeResources, profiles) goes to files in a
/// scratch folder, and `writeArchive` makes the new .ipa by copying every unchanged entry still
/// compressed and deflating only the rewritten ones.
final class ZipSigningWorkspace: SigningWorkspace {
    let archive: ZipArchive
    private let original: ZipSignatureFiles
    /// Where rewritten files are kept until the archive is written (must exist).
    let scratch: String
    private(set) var entries: [String: CodeSignatureFileEntry]
    /// Rewritten files: their path in the archive and where their bytes are.
    private var rewritten: [String: String] = [:]
    private var rewrittenOrder: [String] = []
    /// The SHA-256 of every original entry hashed while signing (inflated, so CRC-checked).
    private var hashed: [String: [UInt8]] = [:]

    init(archive: ZipArchive, scratch: String) {
        self.archive = archive
        self.scratch = scratch
        original = ZipSignatureFiles(archive: archive, workDirectory: scratch)
        entries = original.entries
    }

    /// The paths rewritten so far, in the order they were first written.
    var rewrittenPaths: [String] { rewrittenOrder }

    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if let file = rewritten[path] { return try MappedFile(path: file).withBytes { try body($0) } }
        return try original.withContents(of: path, body)
    }

    func withChunks(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let file = rewritten[path] { return try MappedFile(path: file).withBytes { try body($0) } }
        try original.withChunks(of: path, body)
    }

    func digests(of path: String) throws -> (sha1: [UInt8], sha256: [UInt8]) {
        let digests = try streamedDigests(of: path)
        if rewritten[path] == nil { hashed[path] = digests.sha256 }
        return digests
    }

    /// The SHA-256s of the entries hashed while signing and copied unchanged into the new package,
    /// for its verification (`ReleaseRequest.knownResourceSHA256`): the same compressed bytes, so
    /// the same contents.
    var unchangedSHA256: [String: [UInt8]] {
        hashed.filter { rewritten[$0.key] == nil && !$0.key.hasPrefix("__MACOSX/") }
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        let file = rewritten[path] ?? "\(scratch)/\(rewrittenOrder.count)"
        if rewritten[path] == nil {
            rewritten[path] = file
            rewrittenOrder.append(path)
        }
        _ = try? FileSystem.removeFile(file)
        let fd = try FileDescriptor.createNew(file)
        defer { try? fd.close() }
        try bytes.withUnsafeBytes { try FileDigest.writeAll(fd, $0, path: file) }
        entries[path] = .file(size: UInt64(bytes.count))
    }

    /// Writes the re-signed .ipa to `output` (a new file, synced): the original's entries in
    /// their order, unchanged ones copied compressed as they are, rewritten ones deflated with
    /// their original mode (a link replaced by a file becomes a plain file), then new files.
    /// Finder's `__MACOSX/` shadows are left out. Returns the new file's size.
    func writeArchive(to output: String) throws -> UInt64 {
        let fd = try FileDescriptor.createNew(output)
        defer { try? fd.close() }
        var size: UInt64 = 0
        var writer = ZipWriter { chunk in
            size += UInt64(chunk.count)
            try FileDigest.writeAll(fd, chunk, path: output)
        }
        var written = Set<String>()
        for entry in archive.entries where !entry.name.hasPrefix("__MACOSX/") {
            guard let file = rewritten[entry.name] else {
                try writer.copyEntry(entry, of: archive)
                continue
            }
            let mode = entry.unixMode.flatMap { $0 & 0o170000 == 0o100000 ? $0 : nil } ?? 0o100644
            try Self.add(file, as: entry.name, mode: mode, to: &writer)
            written.insert(entry.name)
        }
        for path in rewrittenOrder where !written.contains(path) {
            if let file = rewritten[path] { try Self.add(file, as: path, mode: 0o100644, to: &writer) }
        }
        try writer.close()
        try withFileSystemError("sync") { () throws(SystemCallError) in try fd.sync() }
        return size
    }

    /// Deflates the file at `file` into `writer` as `name`, a megabyte at a time.
    static func add(_ file: String, as name: String, mode: UInt32, to writer: inout ZipWriter) throws {
        let mapped = try MappedFile(path: file)
        try writer.addFile(name, mode: mode) { deliver in
            try mapped.withBytes { bytes in
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + (1 << 20))
                    try deliver(UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
                    start = end
                }
            }
        }
    }
}
