import BetaKit
import BetaJSON

/// `betactl show-tester`: one tester's details, page URL and devices.
enum ShowTesterCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "show-tester", summary: "Show a tester, their page URL and their devices.",
        arguments: [ArgumentSpec(name: "TESTER", help: "The tester's id, email or exact name.")],
        options: [.json])

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let roster = Roster(home: home)
        let tester = try roster.tester(matching: invocation.arguments.argument("TESTER") ?? "")
        let devices = try roster.devices().filter { $0.testerID == tester.id }
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(RosterJSON.tester(tester, publicURL: home.settings.publicURL, devices: devices))
            return
        }
        let style = invocation.style
        invocation.print("\(style.bold(TerminalText.cell(tester.name))) (tester \(tester.id))")
        invocation.print("  email:   \(TerminalText.cell(tester.email ?? "-"))")
        invocation.print("  groups:  \(tester.groups.isEmpty ? "-" : TerminalText.cell(tester.groups.joined(separator: ", ")))")
        invocation.print("  added:   \(CalendarDate(tester.createdAt))")
        invocation.print("  page:    \(tester.pageURL(publicURL: home.settings.publicURL))")
        guard !devices.isEmpty else {
            invocation.print("  devices: none (add one with `betactl add-device \(tester.id) UDID --model CODE`)")
            return
        }
        invocation.print("  devices:")
        var table = Table(headers: ["UDID", "NAME", "FAMILY", "STATUS", "ADDED"])
        for device in devices {
            table.rows.append([device.identifier.value, device.name, device.family.rawValue, DevicesCommand.statusLabel(device),
                               CalendarDate(device.addedAt).description])
        }
        invocation.console.writeOut(table.render(style: style).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n")
    }
}
