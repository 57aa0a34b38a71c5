import BetaKit

/// `betactl backup DEST`: a consistent copy of the home, taken while it is in use.
enum BackupCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "backup", summary: "Copy the home consistently, even while the server and other commands write to it.",
        arguments: [ArgumentSpec(name: "DEST", help: "A new or empty folder for the copy.")],
        options: [.flag("--include-secrets", "Also copy the home's secrets (the App Store Connect key), which backups leave out by default.")],
        discussion: "The database is copied with SQLite's online backup API (a snapshot, however busy the home is), then "
            + "the builds, profiles and dSYMs it references: hard-linked when DEST is on the same file system (they are "
            + "never changed in place), otherwise copied and checked against their SHA-256. The symbol index cache is left "
            + "out; it is rebuilt on demand. DEST is itself a home: check it with `betactl verify --home DEST` and bring it "
            + "back with `betactl restore DEST`. Hard links guard against deletion and a damaged database, not a failing "
            + "disk: for that, back up to another file system. The App Store Connect key is left out unless --include-secrets: "
            + "a backup without it needs `betactl apple connect` again after a restore.",
        group: .maintenance)

    static func run(_ invocation: Invocation) async throws {
        let destination = invocation.arguments.argument("DEST") ?? ""
        let home = try invocation.openHome()
        let summary = try HomeBackup.backup(home, to: destination, includeSecrets: invocation.arguments.flag("--include-secrets"))
        let copied = summary.blobs - summary.linked - summary.problems.count
        invocation.print("Backed up \(home.path) to \(destination):")
        invocation.print("  database      copied (a consistent snapshot)")
        invocation.print("  blobs         \(summary.blobs) referenced: \(summary.linked) hard-linked, \(copied) copied "
            + "(\(MaintenanceText.megabytes(summary.copiedBytes)) checked against their SHA-256)")
        if invocation.arguments.flag("--include-secrets") {
            invocation.print("  secrets       \(summary.secrets) file\(summary.secrets == 1 ? "" : "s") copied (keep this backup private)")
        } else if FileKind(path: home.path + "/secrets") == .directory {
            invocation.print("  secrets       left out (the App Store Connect key; add --include-secrets to copy it)")
        }
        guard summary.problems.isEmpty else {
            for problem in summary.problems { invocation.print("  problem       \(problem)") }
            throw CommandFailure(description: "the backup at \(destination) lacks \(summary.problems.count) blob"
                + "\(summary.problems.count == 1 ? "" : "s") the home itself has lost or damaged; run `betactl verify` "
                + "and restore them from an older backup")
        }
        invocation.print("Check it with `betactl verify --home \(destination)`.")
    }
}

/// Wording shared by the maintenance commands.
enum MaintenanceText {
    /// Bytes as megabytes with one decimal, e.g. "3.4 MB".
    static func megabytes(_ bytes: UInt64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
