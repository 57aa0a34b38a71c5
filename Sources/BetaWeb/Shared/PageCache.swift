import Synchronization

/// Rendered pages and QR codes, kept until the data changes.
///
/// A tester's page depends only on the snapshot, the origin links are built on and the kind of
/// browser, so the bytes are reused until the snapshot's generation moves on. The cache is bounded:
/// a client cycling through made-up Host headers can only make it start over, not grow.
final class PageCache: Sendable {
    struct Key: Hashable, Sendable {
        var kind: String
        var testerID: Int64
        var releaseID: Int64 = 0
        var base: String
        var client: ClientKind = .other
        var inAppBrowser = false
    }

    private struct State {
        var generation = -1
        var entries: [Key: [UInt8]] = [:]
    }

    static let capacity = 4096
    private let state = Mutex(State())

    /// The bytes cached for `key` in `generation`, if any.
    func get(_ key: Key, generation: Int) -> [UInt8]? {
        state.withLock { state in state.generation == generation ? state.entries[key] : nil }
    }

    /// Stores `bytes` for `key`; a newer generation empties the cache first.
    func put(_ key: Key, generation: Int, bytes: [UInt8]) {
        state.withLock { state in
            if generation > state.generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            guard generation == state.generation else { return }
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = bytes
        }
    }
}
