import AppleFormats
import BetaKit
import BetaJSON

/// `betactl symbols`: archived symbols and executables still lacking them.
enum SymbolsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "symbols", summary: "List archived symbols and executables that still lack them.", options: [.json], group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let archive = Archive(home: try invocation.openHome())
        let symbols = try archive.symbols()
        let missing = try archive.slicesWithoutSymbols()
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(ArchiveJSON.symbols(symbols, missing: missing))
            return
        }
        if symbols.isEmpty {
            invocation.print("No symbols archived yet.")
        } else {
            var table = Table(headers: ["UUID", "ARCH", "DSYM", "RELEASES", "ADDED"])
            for entry in symbols {
                table.rows.append([entry.uuid, entry.architecture, entry.dsymName,
                                   entry.releaseIDs.isEmpty ? "-" : entry.releaseIDs.map(String.init).joined(separator: ","), CalendarDate(entry.addedAt).description])
            }
            invocation.console.writeOut(table.render(style: invocation.style))
        }
        if !missing.isEmpty {
            invocation.print("")
            invocation.warn("\(missing.count) executable slice\(missing.count == 1 ? " lacks" : "s lack") symbols; add them with `betactl add-symbols PATH`:")
            for item in missing {
                invocation.print("  release \(item.releaseID)  \(item.slice.path) \(item.slice.architecture) \(item.slice.uuid ?? "(no UUID)")")
            }
        }
    }
}
