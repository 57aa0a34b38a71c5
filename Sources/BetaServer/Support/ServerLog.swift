import PosixIO

/// Where the server writes its messages and access log lines.
public struct ServerLog: Sendable {
    /// Receives informational and error messages, one line each.
    public var message: @Sendable (String) -> Void
    /// Receives access log lines (combined log format); nil disables the access log.
    public var access: (@Sendable (String) -> Void)?
    /// Rewrites request targets before they are logged, so secrets in URLs (such as testers' private
    /// links) never reach a log file; the default keeps targets as they are.
    public var redactTarget: @Sendable (String) -> String = { $0 }

    /// Creates a log with explicit sinks.
    public init(message: @escaping @Sendable (String) -> Void, access: (@Sendable (String) -> Void)?) {
        self.message = message
        self.access = access
    }

    /// Messages and access lines to standard error.
    public static let standardError = ServerLog(message: { writeLine($0, to: 2) }, access: { writeLine($0, to: 2) })
    /// Messages to standard error, no access log.
    public static let messagesOnly = ServerLog(message: { writeLine($0, to: 2) }, access: nil)
    /// Drops everything.
    public static let discarding = ServerLog(message: { _ in }, access: nil)

    /// Writes `line` plus a newline with one write(2) so concurrent lines do not interleave.
    public static func writeLine(_ line: String, to descriptor: Int32) {
        var bytes = Array(line.utf8)
        bytes.append(ASCII.lf)
        // A log line that cannot be written (a closed descriptor, a full disk) is dropped.
        try? FileDescriptor(rawValue: descriptor).writeAll(bytes)
    }
}
