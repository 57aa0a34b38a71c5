import Synchronization

/// Failed dashboard logins per client address: after `limit` failures within `window`, that
/// address is refused (429, with how long to wait) until the oldest failure leaves the window.
/// A correct token does not get through a block, so guessing gets no faster by mixing in one.
///
/// State is in memory and bounded: beyond `capacity` addresses the ones whose latest failure is
/// oldest are forgotten first, so a flood of addresses cannot grow it.
final class LoginThrottle: Sendable {
    let limit: Int
    let window: Duration
    let capacity: Int
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(limit: Int = 5, window: Duration = .seconds(15 * 60), capacity: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
    }

    /// How long `address` must still wait before trying again; nil when it may try now.
    func wait(for address: String, now: ContinuousClock.Instant = .now) -> Duration? {
        failures.withLock { table in
            let recent = (table[address] ?? []).filter { now - $0 < window }
            table[address] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (now - oldest)
        }
    }

    /// Records a failed login from `address`.
    func recordFailure(from address: String, now: ContinuousClock.Instant = .now) {
        failures.withLock { table in
            var recent = (table[address] ?? []).filter { now - $0 < window }
            recent.append(now)
            table[address] = Array(recent.suffix(limit))
            guard table.count > capacity else { return }
            table = table.filter { _, times in times.last.map { now - $0 < window } ?? false }
            if table.count > capacity {
                let keep = table.sorted { ($0.value.last ?? now) > ($1.value.last ?? now) }.prefix(capacity / 2)
                table = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
    }

    /// Forgets `address`'s failures after a successful login.
    func recordSuccess(from address: String) {
        failures.withLock { $0[address] = nil }
    }
}
