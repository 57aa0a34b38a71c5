#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// `betactl symbolicate`: turns a tester's crash report into functions, files and lines.
enum SymbolicateCommand: SynchronousCommand {
    static let spec = CommandSpec(
        name: "symbolicate", summary: "Symbolicate a crash report (.crash or .ips) with archived or given dSYMs.",
        arguments: [ArgumentSpec(name: "REPORT", help: "A crash report: .crash text, .ips JSON, or an iOS 14 .ips. Several may be given.",
                                 isRepeated: true)],
        options: [
            .repeated("--dsym", "PATH", "A .dSYM bundle, a folder containing dSYMs, or a DWARF file."),
            .flag("--json", "Print the symbolicated report as JSON (frames, inlined locations, signature, missing images)."),
        ],
        discussion: """
        Symbols come from the dSYMs given with --dsym, then from the archive (`release`, `add-symbols`). \
        Prints the report in Apple's text layout with each frame as `symbol (in Image) (File.swift:LINE)`; \
        inlined functions get their own line marked [inlined]. Frames without symbols are kept as they were, \
        and every image that had no symbols is named on standard error with its UUID. Symbol indexes are \
        built on first use into <home>/cache/symbols/ (safe to delete). With several reports, each is \
        preceded by a `==> REPORT <==` line, and --json prints an array.
        """,
        group: .crashes)

    // Crash reports are a few hundred kilobytes; the largest real ones stay far below this.
    static let maxReportSize = 64 << 20

    static func runSynchronously(_ invocation: Invocation) throws {
        trace("run")
        let args = invocation.arguments
        let paths = args.arguments("REPORT")
        guard !paths.isEmpty else { throw invocation.usageError("give the crash report to symbolicate (betactl symbolicate REPORT)") }
        // Read every report first so a bad one fails before any output.
        var reports: [CrashReport] = []
        for path in paths {
            do {
                reports.append(try CrashReport(data: Data(try FileIO.readFile(path, limit: maxReportSize))))
            } catch let error as CrashReportError {
                throw CommandFailure(description: "\(path): \(error)", category: .invalidInput)
            }
        }
        trace("reports")
        // The database is opened only if an image is neither indexed already nor given with --dsym.
        let homePath = invocation.homePath
        try Home.checkInitialised(at: homePath)
        trace("home")
        let dsyms: DSYMPathLocator
        do { dsyms = try DSYMPathLocator(paths: args.values("--dsym")) } catch {
            throw CommandFailure(description: "\(error)", category: .invalidInput)
        }
        trace("dsyms")
        let cache = try SymbolIndexCache(directory: Home.cachePath(home: homePath) + "/symbols")
        // dSYMs named on the command line win; the archive has every published build's symbols.
        let locator = ChainedSymbolFileLocator([dsyms, ArchiveSymbolFileLocator(homePath: homePath)])
        let symbolicator = Symbolicator(locator: locator, cache: cache)
        trace("cache")
        let progress = progressReporter(invocation)
        let several = paths.count > 1
        var json: [String] = []
        for (path, report) in zip(paths, reports) {
            let result = try symbolicator.symbolicate(report, progress: progress)
            trace("symbolicated")
            if args.flag("--json") {
                json.append(try result.renderJSON())
            } else {
                let text = result.renderText()
                invocation.console.writeOut((several ? "==> \(path) <==\n" : "") + text + (text.hasSuffix("\n") ? "" : "\n"))
            }
            trace("rendered")
            let prefix = several ? "\(path): " : ""
            for image in result.imagesWithoutSymbols {
                let uuid = image.uuid?.uuidString ?? "no UUID"
                let kind = image.isAppImage ? "app image" : "system image"
                invocation.warn("\(prefix)no symbols for \(kind) \(image.name) (\(uuid)): \(image.reason)")
            }
            let hint = result.imagesWithoutSymbols.contains(where: \.isAppImage) ? " (pass the app's dSYM with --dsym for a symbolic signature)" : ""
            invocation.printError("\(prefix)Crash signature \(result.signature.key): \(result.signature)\(hint)")
        }
        if args.flag("--json") {
            invocation.console.writeOut((several ? "[\n" + json.joined(separator: ",\n") + "\n]" : json.joined()) + "\n")
        }
    }

    /// Prints index-build progress on standard error, rewriting one line on a terminal.
    static func progressReporter(_ invocation: Invocation) -> @Sendable (SymbolIndexProgress) -> Void {
        let console = invocation.console
        return { progress in
            let percent = Int(progress.fraction * 100)
            guard console.errorIsTerminal else {
                if progress.completedBytes == 0 { console.writeError("Indexing symbols (\(progress.totalBytes / 1024) KiB of DWARF)…\n") }
                return
            }
            console.writeError("\rIndexing symbols: \(percent)%" + (progress.fraction >= 1 ? "\n" : ""))
        }
    }
}
