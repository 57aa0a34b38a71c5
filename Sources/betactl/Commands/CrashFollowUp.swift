import BetaKit

/// After `release` or `add-symbols`: crash reports that waited for the new symbols (or match the
/// new release) were queued again in the same transaction; they are processed here too, so the
/// list is right without a server (a running server would get to them within a second anyway).
enum CrashFollowUp {
    static func processRequeued(home: Home, invocation: Invocation) {
        let store = CrashStore(home: home)
        guard let queued = try? store.queuedCount(), queued > 0 else { return }
        do {
            let now = invocation.now
            let count = try CrashProcessor(store: store).drain(maxReports: 10_000, now: { now })
            if count > 0 { invocation.print("  crash reports \(count) processed again with the new symbols") }
        } catch {
            // The reports stay queued: the server (or the next command) processes them.
            invocation.warn("crash reports waiting for these symbols stay queued: \(error)")
        }
    }
}
