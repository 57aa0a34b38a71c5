/// A command's name, help text and the arguments and options it accepts.
///
/// Specs are data so that help, parsing and "did you mean" suggestions all come
/// from one place and cannot drift apart.
struct CommandSpec: Sendable {
    /// The word typed after `betactl`.
    var name: String
    /// One line for the command list.
    var summary: String
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// Options and flags.
    var options: [OptionSpec] = []
    /// Extra paragraphs for `--help`.
    var discussion: String? = nil
    /// The section the command is listed under in `betactl --help`.
    var group: CommandGroup = .roster
}

/// Sections of the command list.
enum CommandGroup: String, CaseIterable, Sendable {
    case setup = "Set-up"
    case roster = "Testers and devices"
    case profiles = "Profiles and entitlements"
    case releases = "Releases and symbols"
    case crashes = "Crash reports"
    case server = "Server"
    case maintenance = "Backup and maintenance"
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// The placeholder shown in usage, such as `UDID`.
    var name: String
    /// What it is.
    var help: String
    /// Whether it may be left out.
    var isOptional: Bool = false
    /// Whether it takes every remaining positional value.
    var isRepeated: Bool = false
}

/// A `--name` option: a flag when `valueName` is nil, otherwise it takes a value.
struct OptionSpec: Sendable {
    /// The option including dashes, such as `--email`.
    var name: String
    /// The placeholder for its value, such as `E`; nil for flags.
    var valueName: String?
    /// What it does.
    var help: String
    /// Whether it may be given more than once.
    var isRepeatable: Bool = false

    /// A flag.
    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, valueName: nil, help: help) }
    /// An option with one value.
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }
    /// An option that may be repeated.
    static func repeated(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true)
    }

    /// `--json` is offered by every listing command.
    static let json = flag("--json", "Print JSON instead of text.")
}

/// A betactl subcommand.
protocol BetactlCommand {
    /// The command's spec.
    static var spec: CommandSpec { get }
    /// Runs the command. Throwing maps to an exit status (see `ExitStatus`).
    static func run(_ invocation: Invocation) async throws
}

/// A command that needs no concurrency. It runs on the main thread before the concurrency
/// runtime starts its worker threads, which costs more than symbolicating a crash report.
protocol SynchronousCommand: BetactlCommand {
    /// Runs the command. Throwing maps to an exit status (see `ExitStatus`).
    static func runSynchronously(_ invocation: Invocation) throws
}

extension SynchronousCommand {
    /// Runs the command synchronously on the calling task.
    static func run(_ invocation: Invocation) async throws { try runSynchronously(invocation) }
}

/// Options every command accepts.
enum GlobalOptions {
    static let specs: [OptionSpec] = [
        .value("--home", "DIR", "Use the home in DIR (default: $BETACTL_HOME, else ~/.betactl)."),
        .flag("--no-color", "Never use colour (also when NO_COLOR is set)."),
        .flag("--help", "Show help for the command."),
    ]
}
