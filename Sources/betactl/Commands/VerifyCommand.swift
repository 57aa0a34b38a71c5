import BetaKit

/// `betactl verify`: checks that the home is whole; exit 1 on any problem.
enum VerifyCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "verify", summary: "Check the database, every archived file's SHA-256, symbols and orphans.",
        discussion: "Runs SQLite's integrity and foreign-key checks; hashes every blob the database references and "
            + "compares it with its name and recorded size; checks that every released executable has its symbols, or "
            + "was recorded as released without them; and lists files in blobs/ the database does not know (orphans). "
            + "Each problem is printed with its fix, and the exit status is 1 when there is any. Point it at a backup "
            + "with --home.",
        group: .maintenance)

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let progress = ProgressLine(console: invocation.console, environment: invocation.environment)
        let handler = progress.handler
        let report: HomeVerifier.Report
        do {
            defer { progress.finish() }
            report = try HomeVerifier.verify(home) { done, total in handler?("verifying blobs", done, total) }
        }
        invocation.print("Verified \(home.path):")
        let databaseOK = !report.problems.contains { $0.hasPrefix("the database fails") }
        invocation.print("  database      \(databaseOK ? "ok" : "DAMAGED") (SQLite integrity and foreign keys)")
        invocation.print("  blobs         \(report.blobsChecked) intact (\(MaintenanceText.megabytes(report.bytesChecked)) hashed)")
        let recorded = report.recordedWithoutSymbols
        invocation.print("  releases      \(report.releasesChecked) checked for symbols"
            + (recorded == 0 ? "" : " (\(recorded) executable slice\(recorded == 1 ? " was" : "s were") released without them, as recorded)"))
        guard report.problems.isEmpty else {
            for problem in report.problems { invocation.print("  problem       \(problem)") }
            throw CommandFailure(description: "\(home.path) has \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"), listed above")
        }
        invocation.print("No problems found.")
    }
}
