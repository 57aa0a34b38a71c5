#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization
import PosixIO

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
    // Files that were offered for an index and gave no better one; asking again would only rebuild.
    private let rejected = Mutex<Set<Rejection>>([])
    // Whether this instance has swept abandoned scratch files yet: once is enough, since files
    // abandoned later belong to processes that were alive then.
    private let swept = Mutex(false)

    private struct Rejection: Hashable {
        var indexPath: String
        var source: SymbolSource
    }

    private final class BuildLock: Sendable {
        let mutex = Mutex(())
    }

    /// Uses `directory`, creating it if needed.
    public init(directory: String) throws {
        self.directory = directory
        if FileKind(path: directory) != .directory {
            // Private like the rest of the home: indexes name the app's functions and source files.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    /// Scratch files are named `.<index name>.<pid>.<random>.<table>`; a build killed before it
    /// finished leaves them, and only a process that is gone can be cleaned up after. The first
    /// build of each cache instance sweeps them (symbolicating with indexes already built never looks).
    static func removeAbandonedScratchFiles(in directory: String) {
        guard let names = try? directoryEntries(directory) else { return }
        for name in names where name.hasPrefix(".") && name.contains(".symidx.") {
            let fields = name.split(separator: ".")
            guard let position = fields.firstIndex(of: "symidx"), position + 1 < fields.count,
                  let pid = Int32(fields[position + 1]), pid > 0 else { continue }
            if !CurrentProcess.exists(pid) { _ = try? FileSystem.removeFile(directory + "/" + name) }
        }
    }

    private func sweepScratchFilesOnce() {
        let first = swept.withLock { done in
            defer { done = true }
            return !done
        }
        if first { Self.removeAbandonedScratchFiles(in: directory) }
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
    ///
    /// A cached index of the same image is kept when it was built from `file` as it is now, or when
    /// it is intact and the file it was built from is still there unchanged: other copies of an
    /// image with the same UUID hold the same code. It is rebuilt from `file` when it was built
    /// from damaged debug information or from a file that has since gone or changed, and the new
    /// build is adopted only if it is better (fewer skipped problems; for a source that is gone,
    /// no more). A file that gave no better index is remembered and not built again.
    public func index(for file: SymbolFile, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) throws -> SymbolIndex {
        let path = indexPath(uuid: file.uuid, architecture: file.architecture)
        let offered = SymbolSource(path: file.path)
        if let index = cachedIndex(uuid: file.uuid, architecture: file.architecture), keeps(index, offered: offered, at: path) { return index }
        return try withBuildLock(path) {
            // Whoever held the lock before may have just built it.
            guard let cached = cachedIndex(uuid: file.uuid, architecture: file.architecture) else {
                return try buildNow(file, at: path, progress: progress).index
            }
            if keeps(cached, offered: offered, at: path) { return cached }
            return try replacement(for: cached, from: file, offered: offered, at: path, progress: progress)
        }
    }

    /// Whether `cached` stays although `offered` is at hand.
    private func keeps(_ cached: SymbolIndex, offered: SymbolSource?, at path: String) -> Bool {
        // Nothing readable is offered, or it is the very file the index was built from.
        guard let offered, cached.source != offered else { return true }
        if rejected.withLock({ $0.contains(Rejection(indexPath: path, source: offered)) }) { return true }
        return !cached.isBuiltFromDamagedDebugInfo && cached.source?.isUnchanged == true
    }

    /// Builds `file` beside `cached` and keeps the better of the two.
    private func replacement(for cached: SymbolIndex, from file: SymbolFile, offered: SymbolSource?, at path: String,
                             progress: (@Sendable (SymbolIndexProgress) -> Void)?) throws -> SymbolIndex {
        sweepScratchFilesOnce()
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let candidatePath = "\(directory)/.\(name).\(CurrentProcess.id).\(UInt32.random(in: 0 ... .max)).candidate"
        defer { _ = try? FileSystem.removeFile(candidatePath) }
        func keepCached() -> SymbolIndex {
            if let offered { _ = rejected.withLock { $0.insert(Rejection(indexPath: path, source: offered)) } }
            return cached
        }
        let candidate: SymbolIndex
        do {
            _ = try SymbolIndexBuilder(source: file, destination: candidatePath, progress: progress).build()
            candidate = try SymbolIndex(path: candidatePath)
        } catch let error as CancellationError {
            throw error
        } catch {
            // The offered file does not hold a usable copy of the image: what the cache has stays.
            return keepCached()
        }
        let sourceIsGone = cached.source?.isUnchanged != true
        guard candidate.problemCount < cached.problemCount || (sourceIsGone && candidate.problemCount <= cached.problemCount) else {
            return keepCached()
        }
        do { try FileSystem.rename(candidatePath, to: path) } catch {
            throw SymbolicationError.fileSystem(FileSystemError(operation: "rename", path: path, errno: error.errno))
        }
        let index = try SymbolIndex(path: path)
        loaded.withLock { $0[path] = index }
        return index
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
        _ = try? FileSystem.removeFile(path)
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
        sweepScratchFilesOnce()
        let report = try SymbolIndexBuilder(source: file, destination: path, progress: progress).build()
        let index = try SymbolIndex(path: path)
        loaded.withLock { $0[path] = index }
        return (index, report)
    }
}
