import AppleFormats

/// An archived symbol slice whose index could not be built ahead of time, or was built from
/// damaged debug information.
///
/// The index is derived data, so neither undoes a publish: the symbols are safe in the archive,
/// and `symbolicate` builds a missing index the first time it needs it.
public struct SymbolIndexingProblem: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, which decides what the user can do about it.
    public enum Kind: Sendable, Equatable {
        /// No index was written (unreadable file, unusable cache folder, cancellation).
        case notBuilt
        /// An index was written, but parts of the DWARF could not be read and were skipped.
        case damagedDebugInfo
    }

    /// The slice concerned.
    public var key: SymbolKey
    /// Whether an index exists.
    public var kind: Kind
    /// The builder's or the file system's own words.
    public var reason: String

    /// Creates a problem record.
    public init(key: SymbolKey, kind: Kind, reason: String) {
        self.key = key
        self.kind = kind
        self.reason = reason
    }

    /// Names the UUID and says what happens next, so a user does not think the symbols were lost.
    public var description: String {
        switch kind {
        case .notBuilt:
            return "the symbols of \(key) are archived but their index could not be built (\(reason)); `betactl symbolicate` will rebuild it when it needs it"
        case .damagedDebugInfo:
            return "the symbols of \(key) are archived, but their debug information is damaged (\(reason)); crash frames in the damaged part will show function names without file and line"
        }
    }
}

extension Archive {
    /// The home's rebuildable symbol index folder, shared with `symbolicate`.
    public var symbolIndexDirectory: String { home.symbolIndexPath }

    /// Builds the symbol index of each archived slice in `keys` into `symbolIndexDirectory`, so
    /// the first crash report of a new build symbolicates without a wait.
    ///
    /// Call it after the archive commit: it only reads archived files. Problems are returned, not
    /// thrown, because an index can always be rebuilt later and must never fail a publish; damaged
    /// DWARF is reported too, since ingest is the moment the user still has the build at hand.
    /// Cancelling the calling task stops the build in progress; the remaining slices are reported
    /// as not built and are indexed on first use instead.
    public func buildSymbolIndexes(for keys: [SymbolKey],
                                   progress: (@Sendable (SymbolKey, SymbolIndexProgress) -> Void)? = nil) async -> [SymbolIndexingProblem] {
        guard !keys.isEmpty else { return [] }
        let cache: SymbolIndexCache
        do { cache = try SymbolIndexCache(directory: symbolIndexDirectory) } catch {
            return keys.map { SymbolIndexingProblem(key: $0, kind: .notBuilt, reason: "cannot use the cache folder \(symbolIndexDirectory): \(error)") }
        }
        var problems: [SymbolIndexingProblem] = []
        for key in keys {
            if Task.isCancelled {
                problems.append(SymbolIndexingProblem(key: key, kind: .notBuilt, reason: "indexing was cancelled"))
                continue
            }
            do {
                guard let location = try symbolLocation(uuid: key.uuid, architecture: key.architecture),
                      location.architecture == key.architecture else {
                    problems.append(SymbolIndexingProblem(key: key, kind: .notBuilt, reason: "the archive has no symbol file for it"))
                    continue
                }
                let file = SymbolFile(path: location.path, uuid: key.uuid, architecture: location.architecture)
                let perSlice = progress.map { forward in { @Sendable (step: SymbolIndexProgress) in forward(key, step) } }
                let built = try await cache.build(file, progress: perSlice)
                if let first = built.warnings.first {
                    let more = built.warnings.count > 1 ? " and \(built.warnings.count - 1) more problem\(built.warnings.count == 2 ? "" : "s")" : ""
                    problems.append(SymbolIndexingProblem(key: key, kind: .damagedDebugInfo, reason: first + more))
                }
            } catch is CancellationError {
                problems.append(SymbolIndexingProblem(key: key, kind: .notBuilt, reason: "indexing was cancelled"))
            } catch {
                problems.append(SymbolIndexingProblem(key: key, kind: .notBuilt, reason: "\(error)"))
            }
        }
        return problems
    }
}
