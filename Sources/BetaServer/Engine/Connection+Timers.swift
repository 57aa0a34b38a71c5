extension Connection {
    /// Enforces the header deadline, idle timeout, minimum data rates and linger deadline.
    func checkTimers(now: UInt64) {
        let timeouts = core.configuration.timeouts
        switch phase {
        case .head:
            if headFirstByteAt != 0 {
                if now &- headFirstByteAt > timeouts.header.nanoseconds {
                    fail(.requestTimeout, "the request header section did not arrive within \(timeouts.header)")
                }
            } else if requestsHandled == 0 {
                // A fresh connection that sends nothing gets the header deadline too.
                if now &- phaseStartedAt > timeouts.header.nanoseconds { close() }
            } else if now &- phaseStartedAt > timeouts.idle.nanoseconds {
                close()
            }
        case .body:
            if now &- bodyStartedAt < timeouts.bodyGrace.nanoseconds {
                // Within the grace period (connection set-up, a slow start, a client waiting for
                // 100 Continue) nothing is measured; the rate windows begin when it ends.
                rateWindowStart = now
                rateWindowBytes = 0
            } else if rateTooLow(now: now, timeouts: timeouts) {
                fail(.requestTimeout, "the request body arrived slower than \(timeouts.minimumDataRate) bytes/s "
                    + "over \(timeouts.dataRateWindow); send it faster or in a smaller piece")
            }
        case .responding:
            if outbound.isEmpty {
                rateWindowStart = now
                rateWindowBytes = 0
            } else if rateTooLow(now: now, timeouts: timeouts) {
                core.log.message("closing \(peer): the client read the response slower than \(timeouts.minimumDataRate) bytes/s")
                close()
            }
        case .handling:
            break
        case .lingering:
            if now >= lingerDeadline { close() }
        }
    }

    private func rateTooLow(now: UInt64, timeouts: ServerTimeouts) -> Bool {
        let window = timeouts.dataRateWindow.nanoseconds
        guard now &- rateWindowStart >= window else { return false }
        let needed = Int64(Double(timeouts.minimumDataRate) * Double(now &- rateWindowStart) / 1e9)
        if rateWindowBytes < needed { return true }
        rateWindowStart = now
        rateWindowBytes = 0
        return false
    }
}
