import PosixIO

/// Where a command's output goes, and whether it may be coloured.
///
/// Everything written through it is made safe for a terminal first (`TerminalText`): values from
/// outside (crash fields, names, notes, file contents) cannot send control sequences to the
/// admin's terminal, whichever command prints them. Only `writeOutRaw` (a report as received,
/// on request) and `writeErrorControl` (the progress line's own carriage return) bypass it.
struct Console: Sendable {
    /// Writes to standard output, as given.
    private var out: @Sendable (String) -> Void
    /// Writes to standard error, as given.
    private var error: @Sendable (String) -> Void
    /// Writes bytes to standard output, as given.
    private var outBytes: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    /// Whether standard output is a terminal.
    var outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars go there).
    var errorIsTerminal: Bool

    /// The process's own standard output and error.
    static let standard = Console(
        out: { text in Console.writeAll(1, text) },
        error: { text in Console.writeAll(2, text) },
        outBytes: { bytes in Console.writeAll(1, bytes) },
        outputIsTerminal: FileDescriptor(rawValue: 1).isTerminal,
        errorIsTerminal: FileDescriptor(rawValue: 2).isTerminal)

    /// Writes text to standard output, control characters escaped.
    func writeOut(_ text: String) { out(TerminalText.safe(text)) }

    /// Writes text to standard error, control characters escaped.
    func writeError(_ text: String) { error(TerminalText.safe(text)) }

    /// Writes UTF-8 text to standard output (large outputs such as symbolicated reports, without a
    /// String copy unless a control character needs escaping).
    func writeOutBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let safe = TerminalText.safe(bytes: bytes) { return safe.withUnsafeBufferPointer { outBytes($0) } }
        outBytes(bytes)
    }

    /// Writes bytes to standard output exactly as they are: `show-crash --raw`, asked for by name.
    func writeOutRaw(_ bytes: UnsafeBufferPointer<UInt8>) { outBytes(bytes) }

    /// Writes the CLI's own terminal control (a progress line's `\r` and line clear) to standard
    /// error; whatever it contains from outside must be `TerminalText.safe` already.
    func writeErrorControl(_ text: String) { error(text) }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, $0) }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
        // Output that cannot be written (a closed pipe) is dropped, as a shell's echo drops it.
        try? FileDescriptor(rawValue: fd).writeAll(UnsafeRawBufferPointer(buffer))
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
