import CSystemShim

/// How many connections the process's open-file limit leaves room for.
///
/// Every connection is a descriptor, and one sending a file or receiving a spooled body holds a
/// second. Capping connections below what the limit allows keeps the "server full" 503 path
/// reachable, instead of `accept` failing with EMFILE long before `maxConnections` is reached.
struct DescriptorBudget: Sendable {
    /// Descriptors kept for everything that is not a connection: pollers, wakers, listeners,
    /// standard streams, the signal pipe, SQLite and the handlers' own files.
    static let reserved: UInt64 = 64

    /// The soft RLIMIT_NOFILE the server runs with.
    let limit: UInt64

    /// Raises the soft limit toward the hard limit (see `shim_raise_descriptor_limit`) and
    /// describes the result. A failure keeps the limit as it was; the budget then uses that.
    static func raise() -> DescriptorBudget {
        var before: UInt64 = 0
        var after: UInt64 = 0
        _ = shim_raise_descriptor_limit(&before, &after)
        // getrlimit cannot really fail; if it did, both stay 0 and the budget assumes the classic 1024.
        return DescriptorBudget(limit: after == 0 ? 1024 : after)
    }

    /// Connections that fit: half of what the reserve leaves, since each may hold a second descriptor.
    var connectionCapacity: Int {
        guard limit > Self.reserved + 2 else { return 1 }
        return Int(min((limit - Self.reserved) / 2, UInt64(Int.max)))
    }

    /// Refused connections allowed to linger for their 503 at once; beyond this they are reset,
    /// so a flood of refusals cannot use up the reserve.
    var lingeringRefusals: Int { Int(Self.reserved / 2) }
}
