import BetaKit
import BetaServer
import Synchronization

/// The current `DistributionSnapshot`, rebuilt on the blocking pool after the database changes.
///
/// A watcher task polls SQLite's data version every `refreshInterval`; a change (from this server or
/// any other process, such as `betactl init` or `betactl release`) bumps the generation, and the next
/// request loads a fresh snapshot. Concurrent requests share one load.
final class SnapshotStore: Sendable {
    private struct State {
        var snapshot: DistributionSnapshot?
        var loadedGeneration = -1
        var generation = 0
        var loading: (generation: Int, task: Task<DistributionSnapshot, Error>)?
    }

    private let home: Home
    private let pool: BlockingPool
    private let state = Mutex(State())

    init(home: Home, pool: BlockingPool) {
        self.home = home
        self.pool = pool
    }

    /// The generation of the data: it changes whenever the database does.
    var generation: Int { state.withLock { $0.generation } }

    /// Marks the snapshot stale; the next `current()` reloads it.
    func invalidate() {
        state.withLock { $0.generation += 1 }
    }

    /// The snapshot for the current generation, loading it when stale.
    func current() async throws -> (snapshot: DistributionSnapshot, generation: Int) {
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
