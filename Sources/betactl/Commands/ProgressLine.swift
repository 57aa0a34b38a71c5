import BetaKit
import Synchronization

/// A one-line progress display on standard error, only when it is a terminal that understands
/// the erase-line escape (not TERM=dumb).
///
/// Progress is not colour, so NO_COLOR and --no-color leave it on; a pipe or a file never gets it
/// because its carriage returns and escapes would litter logs.
final class ProgressLine: Sendable {
    private let console: Console
    private let isEnabled: Bool
    private let lastPercent = Mutex<[String: Int]>([:])

    /// Ingest inputs smaller than this finish before a bar is worth drawing.
    static let minimumIngestBytes: UInt64 = 8 << 20

    init(console: Console, environment: [String: String]) {
        self.console = console
        self.isEnabled = Self.isWanted(errorIsTerminal: console.errorIsTerminal, environment: environment)
    }

    /// Whether progress may be drawn: standard error is a terminal that can erase a line.
    static func isWanted(errorIsTerminal: Bool, environment: [String: String]) -> Bool {
        errorIsTerminal && environment["TERM"] != "dumb"
    }

    /// The handler to pass to BetaKit's ingest, or nil when progress is not drawn.
    var handler: IngestProgressHandler? {
        guard isEnabled else { return nil }
        return { [self] phase, done, total in
            guard total > Self.minimumIngestBytes else { return }
            draw(phase, percent: Int(done * 100 / max(total, 1)), detail: " (\(done >> 20) of \(total >> 20) MB)")
        }
    }

    /// The handler for building symbol indexes after a publish, or nil when progress is not drawn.
    /// Every slice is shown, however small: the line names the UUID being indexed.
    var indexHandler: (@Sendable (SymbolKey, SymbolIndexProgress) -> Void)? {
        guard isEnabled else { return nil }
        return { [self] key, step in
            draw("indexing symbols \(key)", percent: Int(step.fraction * 100), detail: "")
        }
    }

    private func draw(_ phase: String, percent: Int, detail: String) {
        let changed = lastPercent.withLock { state -> Bool in
            guard state[phase] != percent else { return false }
            state[phase] = percent
            return true
        }
        if changed { console.writeErrorControl("\r\u{1B}[2K" + TerminalText.safe("\(phase) \(percent)%\(detail)")) }
    }

    /// Clears the line before normal output resumes.
    func finish() {
        let drew = lastPercent.withLock { state -> Bool in
            defer { state.removeAll() }
            return !state.isEmpty
        }
        if drew { console.writeErrorControl("\r\u{1B}[2K") }
    }
}
