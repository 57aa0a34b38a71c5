import AppleFormats
import BetaKit

/// `betactl add-symbols PATH...`: archives dSYMs after the fact.
enum AddSymbolsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "add-symbols", summary: "Archive dSYMs (for example ones downloaded from Xcode).",
        arguments: [ArgumentSpec(name: "PATH", help: "A .dSYM folder or zip, or an .xcarchive.", isRepeated: true)],
        discussion: """
        Slices already archived are skipped, with one exception: when the archived copy's debug information \
        is damaged (add-symbols or release warned about it) and the copy given is intact, the given copy \
        replaces it. The damaged file is never deleted: it stays in the archive, recorded as replaced. \
        New and replacing slices are indexed into <home>/cache/symbols/ so crash reports symbolicate at once; \
        an index that cannot be built is only a warning (symbolicate rebuilds it).
        """,
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let paths = invocation.arguments.arguments("PATH")
        guard !paths.isEmpty else { throw invocation.usageError("give at least one .dSYM or .xcarchive") }
        let progress = ProgressLine(console: invocation.console, environment: invocation.environment)
        let archive = Archive(home: try invocation.openHome())
        let result: AddSymbolsResult
        do {
            defer { progress.finish() }
            result = try archive.addSymbols(paths: paths, now: invocation.now, progress: progress.handler)
        }
        await SymbolIndexing.indexArchived(result.added + result.replaced.map(\.key), archive: archive, invocation: invocation)
        for key in result.added { invocation.print("added    \(key)") }
        for replacement in result.replaced { invocation.print("replaced \(replacement)") }
        for key in result.alreadyPresent { invocation.print(invocation.style.dim("present  \(key)")) }
        var summary = "Archived \(result.added.count) new symbol slice\(result.added.count == 1 ? "" : "s")"
        if !result.replaced.isEmpty { summary += " and replaced \(result.replaced.count) damaged one\(result.replaced.count == 1 ? "" : "s")" }
        if !result.releaseIDs.isEmpty { summary += " for release\(result.releaseIDs.count == 1 ? "" : "s") \(result.releaseIDs.map(String.init).joined(separator: ", "))" }
        invocation.print(summary + ".")
        CrashFollowUp.processRequeued(home: archive.home, invocation: invocation)
    }
}
