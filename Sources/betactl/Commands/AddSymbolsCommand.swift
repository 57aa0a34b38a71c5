import AppleFormats
import BetaKit

/// `betactl add-symbols PATH...`: archives dSYMs after the fact.
enum AddSymbolsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "add-symbols", summary: "Archive dSYMs (for example ones downloaded from Xcode).",
        arguments: [ArgumentSpec(name: "PATH", help: "A .dSYM folder or zip, or an .xcarchive.", isRepeated: true)],
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let paths = invocation.arguments.arguments("PATH")
        guard !paths.isEmpty else { throw invocation.usageError("give at least one .dSYM or .xcarchive") }
        let progress = ProgressLine(console: invocation.console)
        let result: AddSymbolsResult
        do {
            defer { progress.finish() }
            result = try Archive(home: try invocation.openHome()).addSymbols(paths: paths, now: invocation.now, progress: progress.handler)
        }
        for key in result.added { invocation.print("added    \(key)") }
        for key in result.alreadyPresent { invocation.print(invocation.style.dim("present  \(key)")) }
        var summary = "Archived \(result.added.count) new symbol slice\(result.added.count == 1 ? "" : "s")"
        if !result.releaseIDs.isEmpty { summary += " for release\(result.releaseIDs.count == 1 ? "" : "s") \(result.releaseIDs.map(String.init).joined(separator: ", "))" }
        invocation.print(summary + ".")
    }
}
