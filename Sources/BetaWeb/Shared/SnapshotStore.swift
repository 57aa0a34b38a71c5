import BetaKit
import BetaServer
import Synchronization

/// The current `DistributionSnapshot`, rebuilt on the blocking pool after the database changes.
///
/// Every `current()` first asks SQLite's data version whether anything was committed since
/// (`StoreChangeWatcher`: a read of the WAL index in shared memory, microseconds, no reload
/// unless it changed). A change from this server or any other process (`betactl revoke`,
/// `remove-tester`, `release`, …) bumps the generation, and that very request loads a fresh
/// snapshot: what a command changed is in effect from the first request after it returns.
/// Concurrent requests share one load. A watcher task also polls every `refreshInterval`, for
/// the work that must notice changes while no request comes (`onChange`).
final class SnapshotStore: Sendable {
    private struct State {
        var snapshot: DistributionSnapshot?
        var loadedGeneration = -1
        var generation = 0
        var loading: (generation: Int, task: Task<DistributionSnapshot, Error>)?
    }

    private let home: Home
    private let pool: BlockingPool
    private let watcher: StoreChangeWatcher?
    private let onChange: @Sendable () -> Void
    private let state = Mutex(State())

    /// A store that reloads when `watcher` sees a commit, then calls `onChange`; without a
    /// watcher, only `invalidate()` makes it reload.
    init(home: Home, pool: BlockingPool, watcher: StoreChangeWatcher? = nil, onChange: @escaping @Sendable () -> Void = {}) {
        self.home = home
        self.pool = pool
        self.watcher = watcher
        self.onChange = onChange
    }

    /// Marks the snapshot stale when the database changed since the last look; true if it did.
    /// A failed look (the database cannot be read) counts as a change, so the load that follows
    /// reports the problem instead of serving what may be stale.
    @discardableResult
    func noticeChanges() -> Bool {
        guard let watcher else { return false }
        let changed: Bool
        do {
            changed = try watcher.hasChanged(whenChanged: invalidate)
        } catch {
            invalidate()
            changed = true
        }
        if changed { onChange() }
        return changed
    }

    /// The generation of the data: it changes whenever the database does.
    var generation: Int { state.withLock { $0.generation } }

    /// Marks the snapshot stale; the next `current()` reloads it.
    func invalidate() {
        state.withLock { $0.generation += 1 }
    }

    /// The snapshot for the current generation, checking the data version first and loading it
    /// when stale.
    func current() async throws -> (snapshot: DistributionSnapshot, generation: Int) {
        noticeChanges()
        let (ready, task, generation) = state.withLock { state -> (DistributionSnapshot?, Task<DistributionSnapshot, Error>?, Int) in
            if let snapshot = state.snapshot, state.loadedGeneration == state.generation {
                return (snapshot, nil, state.generation)
            }
            if let loading = state.loading, loading.generation == state.generation {
                return (nil, loading.task, state.generation)
            }
            let home = self.home
            let pool = self.pool
            let task = Task { try await pool.run { try DistributionSnapshot.load(from: home) } }
            state.loading = (state.generation, task)
            return (nil, task, state.generation)
        }
        if let ready { return (ready, generation) }
        guard let task else { throw CancellationError() }
        do {
            let snapshot = try await task.value
            state.withLock { state in
                if state.loading?.generation == generation { state.loading = nil }
                if generation >= state.loadedGeneration {
                    state.snapshot = snapshot
                    state.loadedGeneration = generation
                }
            }
            return (snapshot, generation)
        } catch {
            // A failed load is not cached: the next request tries again.
            state.withLock { state in if state.loading?.generation == generation { state.loading = nil } }
            throw error
        }
    }
}
