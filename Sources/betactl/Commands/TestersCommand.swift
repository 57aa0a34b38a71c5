import BetaKit
import BetaJSON

/// `betactl testers`: lists current testers.
enum TestersCommand: BetactlCommand {
    static let spec = CommandSpec(name: "testers", summary: "List testers.", options: [.json])

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let roster = Roster(home: home)
        let testers = try roster.testers()
        let devices = try roster.devices(includeRemoved: false)
        let counts = Dictionary(grouping: devices.compactMap(\.testerID), by: { $0 }).mapValues(\.count)
        if invocation.arguments.flag("--json") {
            let byTester = Dictionary(grouping: devices, by: { $0.testerID ?? -1 })
            try invocation.printJSON(["testers": testers.map { RosterJSON.tester($0, publicURL: home.settings.publicURL, devices: byTester[$0.id] ?? []) }])
            return
        }
        guard !testers.isEmpty else {
            invocation.print("No testers yet. Add one with `betactl add-tester NAME --email E`.")
            return
        }
        var table = Table(headers: ["ID", "NAME", "EMAIL", "GROUPS", "DEVICES"])
        for tester in testers {
            table.rows.append([String(tester.id), tester.name, tester.email ?? "-", tester.groups.isEmpty ? "-" : tester.groups.joined(separator: ","), String(counts[tester.id] ?? 0)])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
    }
}
