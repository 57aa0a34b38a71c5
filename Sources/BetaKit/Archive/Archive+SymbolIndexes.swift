import AppleFormats

/// An archived symbol slice whose index could not be built ahead of time.
///
/// The index is derived data, so this never undoes a publish: the symbols are safe in the
/// archive and `symbolicate` builds the index the first time it needs it.
public struct SymbolIndexingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The slice whose index is missing.
    public var key: SymbolKey
    /// Why the build failed, as the index builder or the file system put it.
    public var reason: String

    /// Creates a failure record.
    public init(key: SymbolKey, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// Names the UUID and says what happens next, so a user does not think the symbols were lost.
    public var description: String {
        "the symbols of \(key) are archived but their index could not be built (\(reason)); `betactl symbolicate` will rebuild it when it needs it"
    }
}

extension Archive {
    /// The home's rebuildable symbol index folder, shared with `symbolicate`.
    public var symbolIndexDirectory: String { home.cachePath + "/symbols" }

    /// Builds the symbol index of each archived slice in `keys` into `symbolIndexDirectory`, so
    /// the first crash report of a new build symbolicates without a wait.
    ///
    /// Call it after the archive commit: it only reads archived files. Failures are returned, not
    /// thrown, because an index can always be rebuilt later and must never fail a publish.
    /// Cancelling the calling task stops the build in progress; the remaining slices are reported
    /// as failures and indexed on first use instead.
    public func buildSymbolIndexes(for keys: [SymbolKey],
                                   progress: (@Sendable (SymbolKey, SymbolIndexProgress) -> Void)? = nil) async -> [SymbolIndexingFailure] {
        guard !keys.isEmpty else { return [] }
        let cache: SymbolIndexCache
        do { cache = try SymbolIndexCache(directory: symbolIndexDirectory) } catch {
            return keys.map { SymbolIndexingFailure(key: $0, reason: "cannot use the cache folder \(symbolIndexDirectory): \(error)") }
        }
        var failures: [SymbolIndexingFailure] = []
        for key in keys {
            if Task.isCancelled {
                failures.append(SymbolIndexingFailure(key: key, reason: "indexing was cancelled"))
                continue
            }
            do {
                guard let location = try symbolLocation(uuid: key.uuid, architecture: key.architecture),
                      location.architecture == key.architecture else {
                    failures.append(SymbolIndexingFailure(key: key, reason: "the archive has no symbol file for it"))
                    continue
                }
                let file = SymbolFile(path: location.path, uuid: key.uuid, architecture: location.architecture)
                let report = progress.map { report in { @Sendable (step: SymbolIndexProgress) in report(key, step) } }
                try await cache.build(file, progress: report)
            } catch is CancellationError {
                failures.append(SymbolIndexingFailure(key: key, reason: "indexing was cancelled"))
            } catch {
                failures.append(SymbolIndexingFailure(key: key, reason: "\(error)"))
            }
        }
        return failures
    }
}
