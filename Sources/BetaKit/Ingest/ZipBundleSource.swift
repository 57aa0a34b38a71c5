import AppleFormats
import Synchronization
import PosixIO

/// A zipped input (.ipa, zipped .xcarchive or .dSYM) read entry by entry.
final class ZipBundleSource: BundleSource {
    let archive: ZipArchive
    let files: [String: UInt64]
    private let entriesByPath: [String: ZipEntry]
    private let workDirectory: String
    private let verified = Mutex<Set<String>>([])

    init(archive: ZipArchive, workDirectory: String) {
        self.archive = archive
        self.workDirectory = workDirectory
        var files: [String: UInt64] = [:]
        var entries: [String: ZipEntry] = [:]
        for entry in archive.entries where !entry.isDirectory && !entry.isSymbolicLink {
            // Finder's resource-fork shadows are never part of a bundle.
            if entry.name.hasPrefix("__MACOSX/") { continue }
            files[entry.name] = entry.uncompressedSize
            entries[entry.name] = entry
        }
        self.files = files
        self.entriesByPath = entries
    }

    private func entry(_ path: String) throws -> ZipEntry {
        guard let entry = entriesByPath[path] else {
            throw ZipError.malformed("\"\(path)\" is listed but has no entry")
        }
        return entry
    }

    func contents(of path: String, maxSize: Int) throws -> [UInt8] {
        let bytes = try archive.contents(of: try entry(path), maxSize: maxSize)
        verified.withLock { _ = $0.insert(path) }
        return bytes
    }

    func materialize(_ path: String) throws -> (file: MappedFile, extractedPath: String?) {
        let entry = try entry(path)
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let target = "\(workDirectory)/\(UInt64.random(in: 0 ... UInt64.max))-\(name)"
        let fd = try FileDescriptor.createNew(target)
        do {
            defer { try? fd.close() }
            try archive.extract(entry) { chunk in try FileDigest.writeAll(fd, chunk, path: target) }
        } catch {
            _ = try? FileSystem.removeFile(target)
            throw error
        }
        verified.withLock { _ = $0.insert(path) }
        return (try MappedFile(path: target), target)
    }

    /// Records that `path` was read whole elsewhere (its CRC checked), so `verifyRemaining` skips it.
    func markVerified(_ path: String) {
        verified.withLock { _ = $0.insert(path) }
    }

    func verifyRemaining(progress: IngestProgressHandler?) throws {
        let done = verified.withLock { $0 }
        let pending = archive.entries.filter { !$0.isDirectory && !done.contains($0.name) }
        let total = pending.reduce(UInt64(0)) { $0 + $1.compressedSize }
        var finished: UInt64 = 0
        for entry in pending {
            try archive.extract(entry) { _ in }
            finished += entry.compressedSize
            progress?("verifying", finished, total)
        }
    }
}
