#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's output goes, and whether it may be coloured.
///
/// The process uses the real standard streams; tests substitute closures.
struct Console: Sendable {
    /// Writes to standard output.
    var writeOut: @Sendable (String) -> Void
    /// Writes to standard error.
    var writeError: @Sendable (String) -> Void
    /// Writes bytes to standard output (large outputs such as symbolicated reports, without a String copy).
    var writeOutBytes: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    /// Whether standard output is a terminal.
    var outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars go there).
    var errorIsTerminal: Bool

    /// The process's own standard output and error.
    static let standard = Console(
        writeOut: { text in Console.writeAll(1, text) },
        writeError: { text in Console.writeAll(2, text) },
        writeOutBytes: { bytes in Console.writeAll(1, bytes) },
        outputIsTerminal: isatty(1) == 1,
        errorIsTerminal: isatty(2) == 1)

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, $0) }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, base + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// ANSI styling that turns itself off when colour is not wanted.
struct Style: Sendable {
    /// Whether escapes are emitted.
    var enabled: Bool

    /// Colour is used only on a terminal, never with NO_COLOR (any non-empty value), TERM=dumb or --no-color.
    static func decide(isTerminal: Bool, environment: [String: String], noColorFlag: Bool) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(enabled: isTerminal && !noColor && !noColorFlag && environment["TERM"] != "dumb")
    }

    private func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap("1", text) }
    func dim(_ text: String) -> String { wrap("2", text) }
    func red(_ text: String) -> String { wrap("31", text) }
    func green(_ text: String) -> String { wrap("32", text) }
    func yellow(_ text: String) -> String { wrap("33", text) }
    func cyan(_ text: String) -> String { wrap("36", text) }
}
