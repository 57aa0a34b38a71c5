#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization

/// The rebuildable folder of symbol indexes, one file per image (`<UUID>-<arch>.symidx`);
/// in a betactl home it is `<home>/cache/symbols/`.
///
/// Indexes are built on first use (or ahead of time at ingest, with `build`), written
/// atomically, and memory-mapped on load. A missing, outdated or damaged index is simply
/// rebuilt from its symbol file, so the folder can be deleted at any time.
///
/// Everything is synchronous, so a command-line symbolication never starts the concurrency
/// runtime; threads that ask for the same image at once share one build (the later ones wait).
public final class SymbolIndexCache: Sendable {
    /// The cache folder.
    public let directory: String
    private let loaded = Mutex<[String: SymbolIndex]>([:])
    private let buildLocks = Mutex<[String: BuildLock]>([:])

    private final class BuildLock: Sendable {
        let mutex = Mutex(())
    }

    /// Uses `directory`, creating it if needed.
    public init(directory: String) throws {
        self.directory = directory
        if FileKind(path: directory) != .directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    /// Scratch files are named `.<index name>.<pid>.<random>.<table>`; a build killed before it
    /// finished leaves them, and only a process that is gone can be cleaned up after. Every build
    /// sweeps them first (symbolicating with indexes already built never looks).
    static func removeAbandonedScratchFiles(in directory: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            // Only names starting with "." can be scratch files; read the rest no further.
            guard entry.pointee.d_name.0 == CChar(UInt8(ascii: ".")) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.contains(".symidx.") else { continue }
            let fields = name.split(separator: ".")
            guard let position = fields.firstIndex(of: "symidx"), position + 1 < fields.count,
                  let pid = Int32(fields[position + 1]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// Where the index of `uuid`/`architecture` lives.
    public func indexPath(uuid: UUID, architecture: MachOArchitecture) -> String {
        let name = architecture.name
        // Unknown architectures are named "cpu<type>/<subtype>", which cannot be part of a file name.
        return "\(directory)/\(uuid.uuidString)-\(name.contains("/") ? name.replacing("/", with: "_") : name).symidx"
    }

    /// The index of `uuid`/`architecture` if the cache already holds a usable one; no symbol
    /// file is needed, so images indexed earlier need no dSYM lookup at all.
    public func cachedIndex(uuid: UUID, architecture: MachOArchitecture) -> SymbolIndex? {
        let path = indexPath(uuid: uuid, architecture: architecture)
        if let index = loaded.withLock({ $0[path] }) { return index }
        guard let index = try? SymbolIndex(path: path), index.uuid == uuid else { return nil }
        return loaded.withLock { loaded in
            if let earlier = loaded[path] { return earlier }
            loaded[path] = index
            return index
        }
    }

    /// The index for `file`, loading it from the cache or building it. `progress` hears about a
    /// build if one is needed; a cancelled calling task stops the build between compile units.
    public func index(for file: SymbolFile, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) throws -> SymbolIndex {
        if let index = cachedIndex(uuid: file.uuid, architecture: file.architecture) { return index }
        let path = indexPath(uuid: file.uuid, architecture: file.architecture)
        return try withBuildLock(path) {
            // Whoever held the lock before may have just built it.
            if let index = cachedIndex(uuid: file.uuid, architecture: file.architecture) { return index }
            return try buildNow(file, at: path, progress: progress).index
        }
    }

    /// Builds (or rebuilds) the index for `file` now, replacing any cached one. Asynchronous only
    /// so that ingest code can call it from tasks; the build runs on the calling task.
    @discardableResult
    public func build(_ file: SymbolFile, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) async throws -> SymbolIndexBuildReport {
        let path = indexPath(uuid: file.uuid, architecture: file.architecture)
        return try withBuildLock(path) { try buildNow(file, at: path, progress: progress).report }
    }

    /// Forgets a loaded index and deletes its file, for example after a lookup found it damaged.
    public func discard(uuid: UUID, architecture: MachOArchitecture) {
        let path = indexPath(uuid: uuid, architecture: architecture)
        _ = loaded.withLock { $0.removeValue(forKey: path) }
        unlink(path)
    }

    private func withBuildLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let lock = buildLocks.withLock { locks in
            if let lock = locks[path] { return lock }
            let lock = BuildLock()
            locks[path] = lock
            return lock
        }
        return try lock.mutex.withLock { _ in try body() }
    }

    private func buildNow(_ file: SymbolFile, at path: String, progress: (@Sendable (SymbolIndexProgress) -> Void)?) throws
        -> (index: SymbolIndex, report: SymbolIndexBuildReport) {
        Self.removeAbandonedScratchFiles(in: directory)
        let report = try SymbolIndexBuilder(source: file, destination: path, progress: progress).build()
        let index = try SymbolIndex(path: path)
        loaded.withLock { $0[path] = index }
        return (index, report)
    }
}
