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

/// The rebuildable folder of symbol indexes, one file per image (`<UUID>-<arch>.symidx`);
/// in a betactl home it is `<home>/cache/symbols/`.
///
/// Indexes are built on first use (or ahead of time at ingest, with `build`), written
/// atomically, and memory-mapped on load. A missing, outdated or damaged index is simply
/// rebuilt from its symbol file, so the folder can be deleted at any time.
public actor SymbolIndexCache {
    /// The cache folder.
    public nonisolated let directory: String
    private var loaded: [String: SymbolIndex] = [:]
    private var building: [String: Task<(index: SymbolIndex, report: SymbolIndexBuildReport), any Error>] = [:]

    /// Uses `directory`, creating it if needed, and deletes scratch files that builds in processes
    /// which no longer exist left behind.
    public init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        Self.removeAbandonedScratchFiles(in: directory)
    }

    /// Scratch files are named `.<index name>.<pid>.<random>.<table>`; a build killed before it
    /// finished leaves them, and only a process that is gone can be cleaned up after.
    static func removeAbandonedScratchFiles(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".") && name.contains(".symidx.") {
            let fields = name.split(separator: ".")
            guard let position = fields.firstIndex(of: "symidx"), position + 1 < fields.count,
                  let pid = Int32(fields[position + 1]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: directory + "/" + name) }
        }
    }

    /// Where the index of `uuid`/`architecture` lives.
    public nonisolated func indexPath(uuid: UUID, architecture: MachOArchitecture) -> String {
        "\(directory)/\(uuid.uuidString)-\(String(architecture.name.map { $0 == "/" ? "_" : $0 })).symidx"
    }

    /// The index for `file`, loading it from the cache or building it. `progress` hears about a
    /// build if one is needed. Cancelling the calling task cancels the build.
    public func index(for file: SymbolFile, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) async throws -> SymbolIndex {
        let path = indexPath(uuid: file.uuid, architecture: file.architecture)
        if let index = loaded[path] { return index }
        if let index = try? SymbolIndex(path: path), index.uuid == file.uuid {
            loaded[path] = index
            return index
        }
        return try await rebuild(file, at: path, progress: progress).index
    }

    /// Builds (or rebuilds) the index for `file` now, replacing any cached one.
    @discardableResult
    public func build(_ file: SymbolFile, progress: (@Sendable (SymbolIndexProgress) -> Void)? = nil) async throws -> SymbolIndexBuildReport {
        try await rebuild(file, at: indexPath(uuid: file.uuid, architecture: file.architecture), progress: progress).report
    }

    /// Forgets a loaded index and deletes its file, for example after a lookup found it damaged.
    public func discard(uuid: UUID, architecture: MachOArchitecture) {
        let path = indexPath(uuid: uuid, architecture: architecture)
        loaded[path] = nil
        try? FileManager.default.removeItem(atPath: path)
    }

    private func rebuild(_ file: SymbolFile, at path: String, progress: (@Sendable (SymbolIndexProgress) -> Void)?) async throws
        -> (index: SymbolIndex, report: SymbolIndexBuildReport) {
        // Concurrent requests for one image share a single build.
        if let running = building[path] { return try await running.value }
        let task = Task<(index: SymbolIndex, report: SymbolIndexBuildReport), any Error> {
            let report = try SymbolIndexBuilder(source: file, destination: path, progress: progress).build()
            return (try SymbolIndex(path: path), report)
        }
        building[path] = task
        defer { building[path] = nil }
        let result = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        loaded[path] = result.index
        return result
    }
}
