import BetaKit
import Synchronization

/// A one-line progress display on standard error, only when it is a terminal.
final class ProgressLine: Sendable {
    private let console: Console
    private let lastPercent = Mutex<[String: Int]>([:])

    init(console: Console) {
        self.console = console
    }

    /// The handler to pass to BetaKit, or nil when standard error is not a terminal.
    var handler: IngestProgressHandler? {
        guard console.errorIsTerminal else { return nil }
        return { [self] phase, done, total in
            guard total > 8 << 20 else { return }  // small inputs finish before a bar is worth drawing
            let percent = Int(done * 100 / max(total, 1))
            let changed = lastPercent.withLock { state -> Bool in
                guard state[phase] != percent else { return false }
                state[phase] = percent
                return true
            }
            if changed { console.writeError("\r\u{1B}[2K\(phase) \(percent)% (\(done >> 20) of \(total >> 20) MB)") }
        }
    }

    /// Clears the line before normal output resumes.
    func finish() {
        let drew = lastPercent.withLock { !$0.isEmpty }
        if drew { console.writeError("\r\u{1B}[2K") }
    }
}
