import Synchronization

/// A wake-up that is not lost when it comes before the wait.
final class WakeSignal: Sendable {
    private struct State {
        var woken = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wake() {
        let waiter = state.withLock { current -> CheckedContinuation<Void, Never>? in
            guard let waiter = current.waiter else {
                current.woken = true
                return nil
            }
            current.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(timeout: Duration) async {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.wake()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { current -> Bool in
                if current.woken {
                    current.woken = false
                    return true
                }
                current.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
