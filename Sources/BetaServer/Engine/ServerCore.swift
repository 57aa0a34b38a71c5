import Synchronization

/// Whether an accepted connection may be served, and if not, why.
enum Admission: Sendable, Equatable {
    /// Counted against the caps; `perClient` tells whether its address's count was raised too.
    case admitted(perClient: Bool)
    /// Beyond the server's connection cap: answered 503 and closed.
    case serverFull
    /// Beyond the cap for one client address: answered 503 and closed.
    case clientFull

    var isAdmitted: Bool {
        if case .admitted = self { return true }
        return false
    }
}

/// State shared by all event loops of one server: settings, routing, counters.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let chain: Handler
    let trusted: TrustedProxies
    let log: ServerLog
    let budget: DescriptorBudget
    /// `configuration.maxConnections`, lowered to what the descriptor limit allows.
    let maxConnections: Int
    let active = Atomic<Int>(0)
    let rejecting = Atomic<Int>(0)
    private let perClient = Mutex<[String: Int]>([:])
    private let exhaustion = Mutex(RateLimitedWarning())
    private let onLoopFinished: @Sendable () -> Void

    init(configuration: ServerConfiguration, router: Router, chain: @escaping Handler, trusted: TrustedProxies,
         log: ServerLog, budget: DescriptorBudget, onLoopFinished: @escaping @Sendable () -> Void) {
        self.configuration = configuration
        self.router = router
        self.chain = chain
        self.trusted = trusted
        self.log = log
        self.budget = budget
        self.maxConnections = max(1, min(configuration.maxConnections, budget.connectionCapacity))
        self.onLoopFinished = onLoopFinished
    }

    /// Counts a new connection from `peer`, or says which cap it is beyond (it is then counted as
    /// rejecting instead). Trusted proxies carry many clients' connections, so only the server-wide
    /// cap applies to them.
    func admit(peer: String) -> Admission {
        let count = active.wrappingAdd(1, ordering: .relaxed).newValue
        if count > maxConnections {
            active.wrappingSubtract(1, ordering: .relaxed)
            rejecting.wrappingAdd(1, ordering: .relaxed)
            return .serverFull
        }
        let limit = configuration.maxConnectionsPerIP
        guard limit > 0, !trusted.contains(peer) else { return .admitted(perClient: false) }
        let allowed = perClient.withLock { table -> Bool in
            let current = table[peer, default: 0]
            guard current < limit else { return false }
            table[peer] = current + 1
            return true
        }
        if allowed { return .admitted(perClient: true) }
        active.wrappingSubtract(1, ordering: .relaxed)
        rejecting.wrappingAdd(1, ordering: .relaxed)
        return .clientFull
    }

    /// Undoes `admit` once the connection is closed.
    func release(_ admission: Admission, peer: String) {
        switch admission {
        case .admitted(let counted):
            active.wrappingSubtract(1, ordering: .relaxed)
            guard counted else { return }
            perClient.withLock { table in
                let remaining = table[peer, default: 1] - 1
                table[peer] = remaining > 0 ? remaining : nil
            }
        case .serverFull, .clientFull:
            rejecting.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    /// Connections currently counted for `peer` (for tests and diagnostics).
    func connections(from peer: String) -> Int { perClient.withLock { $0[peer, default: 0] } }

    /// Reports that `accept` ran out of descriptors; logged at most once per interval, with how
    /// many times it happened meanwhile, so a flood of connections cannot flood the log too.
    func descriptorsExhausted(now: UInt64) {
        let report = exhaustion.withLock { $0.record(now: now, interval: 10_000_000_000) }
        guard let count = report else { return }
        let repeats = count > 1 ? " (\(count) times in the last 10 s)" : ""
        log.message("warning: out of file descriptors (limit \(budget.limit)); not accepting new connections "
            + "until some close\(repeats); raise the limit with ulimit -n or LimitNOFILE=")
    }

    func loopFinished() { onLoopFinished() }
}

/// Counts occurrences of a condition and says when a warning about it is due.
struct RateLimitedWarning: Sendable {
    private var lastReport: UInt64?
    private var count = 0

    /// Counts one occurrence; returns how many happened since the last report when another is due.
    /// Each event loop passes the time it last woke, so `now` can be a little older than the last
    /// report another loop made: such a time is within the interval, not (by wrapping) long after it.
    mutating func record(now: UInt64, interval: UInt64) -> Int? {
        count += 1
        if let lastReport, now < lastReport || now - lastReport < interval { return nil }
        lastReport = now
        defer { count = 0 }
        return count
    }
}
