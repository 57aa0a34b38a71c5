import BetaKit

/// `betactl restore SRC`: brings a backup back as the home.
enum RestoreCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "restore", summary: "Restore the home from a backup made with `betactl backup`.",
        arguments: [ArgumentSpec(name: "SRC", help: "The backup folder.")],
        options: [.flag("--force", "Replace an existing home (it is kept beside the new one, renamed, never deleted).")],
        discussion: "The backup is verified first and refused if it has any problem. The home (--home, $BETACTL_HOME or "
            + "~/.betactl) is built beside its final place and renamed into it at the end, so an interrupted restore "
            + "changes nothing. An existing home is replaced only with --force; stop any server using it first.",
        group: .maintenance)

    static func run(_ invocation: Invocation) async throws {
        let source = invocation.arguments.argument("SRC") ?? ""
        let target = invocation.homePath
        let summary = try HomeBackup.restore(from: source, to: target, force: invocation.arguments.flag("--force"),
                                             now: invocation.now)
        invocation.print("Restored \(target) from \(source): the database and \(summary.blobs) blob"
            + "\(summary.blobs == 1 ? "" : "s") (\(summary.linked) hard-linked).")
        if let previous = summary.replacedHomeMovedTo {
            invocation.print("The home it replaced was moved to \(previous); delete it once you no longer need it.")
        }
    }
}
