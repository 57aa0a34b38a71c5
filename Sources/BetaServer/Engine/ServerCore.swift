import Synchronization

/// State shared by all event loops of one server: settings, routing, counters.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let chain: Handler
    let trusted: TrustedProxies
    let log: ServerLog
    let active = Atomic<Int>(0)
    let rejecting = Atomic<Int>(0)
    private let onLoopFinished: @Sendable () -> Void

    init(configuration: ServerConfiguration, router: Router, chain: @escaping Handler, trusted: TrustedProxies,
         log: ServerLog, onLoopFinished: @escaping @Sendable () -> Void) {
        self.configuration = configuration
        self.router = router
        self.chain = chain
        self.trusted = trusted
        self.log = log
        self.onLoopFinished = onLoopFinished
    }

    /// Counts a new connection; false when over the cap (it is then counted as rejecting instead).
    func admit() -> Bool {
        let count = active.wrappingAdd(1, ordering: .relaxed).newValue
        if count <= configuration.maxConnections { return true }
        active.wrappingSubtract(1, ordering: .relaxed)
        rejecting.wrappingAdd(1, ordering: .relaxed)
        return false
    }

    func release(admitted: Bool) {
        if admitted {
            active.wrappingSubtract(1, ordering: .relaxed)
        } else {
            rejecting.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    func loopFinished() { onLoopFinished() }
}
