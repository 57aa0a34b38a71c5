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
        name: "symbolicate", summary: "Symbolicate a crash report (.crash, .ips or KSCrash JSON) with given, found or archived dSYMs.",
        arguments: [ArgumentSpec(name: "REPORT", help: "A crash report: .crash text, .ips JSON, an iOS 14 .ips, KSCrash/SentryCrash JSON, or a HockeySDK upload (its first crash). Several may be given.",
                                 isRepeated: true)],
        options: [
            .repeated("--dsym", "PATH", "A .dSYM bundle, a folder containing dSYMs, or a DWARF file."),
            .repeated("--dsym-dir", "DIR", "A folder tree searched for dSYMs by UUID, however deep (as symbolicatecrash used Spotlight)."),
            .flag("--json", "Print the symbolicated report as JSON (frames, inlined locations, signature, missing images)."),
        ],
        discussion: """
        Symbols come from the dSYMs given with --dsym, then those found by UUID under each --dsym-dir, then from the \
        archive (`release`, `add-symbols`). Like atos, it needs no betactl home: without one it uses only the dSYMs it is \
        given and keeps its indexes in $XDG_CACHE_HOME/betactl (else ~/.cache/betactl, else a temporary folder for the \
        run). KSCrash and SentryCrash JSON reports are read too. Prints the report in Apple's text layout with each frame as `symbol (in Image) (File.swift:LINE)`; \
        inlined functions get their own line marked [inlined]. Frames without symbols are kept as they were, \
        and every image that had no symbols is named on standard error with its UUID. Symbol indexes are \
        built on first use into <home>/cache/symbols/ (safe to delete); an index built from damaged debug \
        information is rebuilt when a --dsym or the archive holds an intact copy of the image. With several reports, each is \
        preceded by a `==> REPORT <==` line, and --json prints an array; a report that cannot be read \
        is named on standard error, the others are still symbolicated, and the exit status says so.
        """,
        group: .crashes)

    // Crash reports are a few hundred kilobytes; the largest real ones stay far below this.
    static let maxReportSize = 64 << 20

    static func runSynchronously(_ invocation: Invocation) throws {
        let args = invocation.arguments
        let paths = args.arguments("REPORT")
        guard !paths.isEmpty else { throw invocation.usageError("give the crash report to symbolicate (betactl symbolicate REPORT)") }
        // Like atos, symbolicate works without a home: then only the dSYMs given are used and the
        // indexes go to the user's cache folder. A home named with --home must exist, though: a typo
        // there would otherwise silently drop the archive.
        let homePath = invocation.homePath
        var home: String? = homePath
        do { try Home.checkInitialised(at: homePath) } catch {
            if args.value("--home") != nil { throw error }
            home = nil
        }
        let dsyms: DSYMPathLocator
        let folders: DSYMDirectoryLocator
        do {
            dsyms = try DSYMPathLocator(paths: args.values("--dsym"))
            folders = try DSYMDirectoryLocator(roots: args.values("--dsym-dir"))
        } catch {
            throw CommandFailure(description: "\(error)", category: .invalidInput)
        }
        // dSYMs named on the command line win, then the folders searched by UUID; the archive has
        // every published build's symbols. The database is opened only if an image is neither
        // indexed already nor found in those.
        var locators: [any SymbolFileLocator] = [dsyms]
        if !folders.roots.isEmpty { locators.append(folders) }
        let cache: SymbolIndexCache
        var standalone: StandaloneSymbolCache?
        if let home {
            cache = try SymbolIndexCache(directory: Home.symbolIndexPath(home: home))
            locators.append(ArchiveSymbolFileLocator(homePath: home))
        } else {
            let chosen = try StandaloneSymbolCache(environment: invocation.environment)
            if let reason = chosen.fallbackReason {
                invocation.console.writeError("note: no betactl home, and the cache folder cannot be used (\(reason)); symbol indexes are kept in \(chosen.directory) for this run only\n")
            }
            standalone = chosen
            cache = try SymbolIndexCache(directory: chosen.directory)
        }
        defer { standalone?.removeIfTemporary() }
        var symbolicator = Symbolicator(locator: ChainedSymbolFileLocator(locators), cache: cache)
        if home == nil {
            symbolicator.missingAppSymbolsReason = "no dSYM with this UUID was given" + (folders.roots.isEmpty ? "" : " or found under --dsym-dir")
                + " (there is no betactl home, so no archive was searched)"
        }
        let progress = progressReporter(invocation)
        let several = paths.count > 1
        var json: [String] = []
        var output = TextOutput(capacity: 1 << 16)  // reused: one buffer, one write per report
        // Warnings name the same images report after report: each UUID is spelled out once.
        var uuidStrings: [UUID: String] = [:]
        var unreadable: [String] = []
        // Reports are streamed: each is read, symbolicated and printed before the next is read,
        // so only one report's text and model are held at a time (what grows with more reports is
        // the symbolicator's memo of resolved addresses, and --json output). A report that cannot be
        // read is named on standard error and the others still go through.
        for path in paths {
            let report: CrashReport
            do {
                report = try readReport(try FileIO.readFile(path, limit: maxReportSize))
            } catch {
                // File errors name the path already; a parse error is given it.
                let failure: any Error = error is CrashReportDocumentError
                    ? CommandFailure(description: "\(path): \(error)", category: .invalidInput) : error
                guard several else { throw failure }
                invocation.console.writeError(invocation.errorStyle.red("error:") + " \(failure)\n")
                unreadable.append(path)
                continue
            }
            let result = try symbolicator.symbolicate(report, progress: progress)
            if args.flag("--json") {
                json.append(try result.renderJSON())
            } else {
                // One write per report: the heading, the report and a final line break.
                output.removeAll()
                if several { output.append(string: "==> \(path) <==\n") }
                result.renderText(appendingTo: &output)
                if output.last != UInt8(ascii: "\n") { output.append(string: "\n") }
                output.withBytes { invocation.console.writeOutBytes($0) }
            }
            let prefix = several ? "\(path): " : ""
            var messages = ""
            for image in result.imagesWithoutSymbols {
                let uuid: String
                if let value = image.uuid {
                    uuid = uuidStrings[value] ?? value.uuidString
                    if uuidStrings.count < 4096 { uuidStrings[value] = uuid }
                } else {
                    uuid = "no UUID"
                }
                let text = "no symbols for \(image.isAppImage ? "app image" : "system image") \(image.name) (\(uuid)): \(image.reason)\n"
                messages += invocation.errorStyle.yellow("warning:") + " " + prefix + text
            }
            let hint = result.imagesWithoutSymbols.contains(where: \.isAppImage) ? " (pass the app's dSYM with --dsym for a symbolic signature)" : ""
            invocation.console.writeError(messages + "\(prefix)Crash signature \(result.signature.key): \(result.signature)\(hint)\n")
        }
        if args.flag("--json") {
            invocation.console.writeOut((several ? "[\n" + json.joined(separator: ",\n") + "\n]" : json.joined()) + "\n")
        }
        // The process ends right after this command: releasing what the symbolicator remembered
        // (every address of every report) would only cost time, so it is left to the exit.
        _ = Unmanaged.passRetained(KeepUntilExit(symbolicator: symbolicator))
        if !unreadable.isEmpty {
            throw CommandFailure(description: "\(unreadable.count) of \(paths.count) reports could not be read (\(unreadable.joined(separator: ", "))); the others were symbolicated",
                                 category: .invalidInput)
        }
    }

    /// An Apple report, or a KSCrash/SentryCrash report or HockeySDK upload converted to the same model.
    static func readReport(_ bytes: [UInt8]) throws(CrashReportDocumentError) -> CrashReport {
        try CrashReportDocument(bytes: bytes).crashReport()
    }

    private final class KeepUntilExit {
        let symbolicator: Symbolicator
        init(symbolicator: Symbolicator) { self.symbolicator = symbolicator }
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
            console.writeErrorControl("\rIndexing symbols: \(percent)%" + (progress.fraction >= 1 ? "\n" : ""))
        }
    }
}
