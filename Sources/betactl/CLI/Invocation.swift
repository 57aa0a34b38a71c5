#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit

/// Everything a command needs: its parsed arguments, the environment, the console and the clock.
struct Invocation: Sendable {
    /// The command being run.
    var spec: CommandSpec
    /// Parsed arguments.
    var arguments: ParsedArguments
    /// The process environment.
    var environment: [String: String]
    /// Output streams.
    var console: Console
    /// Styling for standard output.
    var style: Style
    /// Styling for standard error.
    var errorStyle: Style
    /// The current time. `BETACTL_NOW` (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ) overrides it so tests
    /// can step across membership renewals.
    var now: Date

    /// The home directory this invocation uses.
    var homePath: String {
        Home.resolvePath(explicit: arguments.value("--home"), environment: environment)
    }

    /// Opens the initialised home, or fails with how to create one; says so on standard error
    /// when opening made loose permissions private.
    func openHome() throws -> Home {
        let home = try Home.open(at: homePath)
        if let notice = home.permissionNotice { note(notice) }
        return home
    }

    /// Writes a line to standard output.
    func print(_ line: String = "") { console.writeOut(line + "\n") }

    /// Writes a line to standard error.
    func printError(_ line: String) { console.writeError(line + "\n") }

    /// Something the user should know that is not a problem, on standard error.
    func note(_ line: String) { console.writeError(errorStyle.dim("note:") + " " + line + "\n") }

    /// A warning on standard error, marked in yellow on a terminal.
    func warn(_ line: String) { console.writeError(errorStyle.yellow("warning:") + " " + line + "\n") }

    /// Pretty, key-sorted JSON on standard output.
    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        console.writeOut(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// A usage error for this command.
    func usageError(_ message: String) -> UsageError { UsageError(message: message, command: spec.name) }

    static func clock(environment: [String: String]) throws(UsageError) -> Date {
        guard let override = environment["BETACTL_NOW"], !override.isEmpty else { return Date() }
        guard let date = Timestamp.date(override) else {
            throw UsageError(message: "BETACTL_NOW=\(override) is not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, or unset it", command: nil)
        }
        return date
    }
}
