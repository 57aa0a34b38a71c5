import AppleFormats
import BetaKit
import BetaWeb

/// `betactl devices`: slot usage per family and every registered device.
enum DevicesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "devices", summary: "Show device slot usage per family and list devices.", options: [.json],
        discussion: "A device added during the membership year takes a slot in its family; removing it does not give the slot back until the year renews.")

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let roster = Roster(home: home)
        let devices = try roster.devices()
        let usage = try roster.usage(now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(RosterJSON.devices(devices, usage: usage))
            return
        }
        let style = invocation.style
        var out = "Membership year \(usage.year.start) to \(usage.year.renews)"
        if usage.year.isInferred {
            out += style.yellow(" (no renewal date set: counted from the anniversary of `betactl init`; set the real one with `betactl init --membership-renewal YYYY-MM-DD`)")
        }
        out += "\n"
        let shown = usage.families.filter { $0.used > 0 || $0.family == .iphone || $0.family == .ipad }
        for family in shown {
            out += "  " + family.family.displayName.padding(18) + bar(family, style: style) + "  "
            out += "\(family.used)/\(family.limit)"
            if family.removed > 0 {
                out += String(repeating: " ", count: max(1, 9 - "\(family.used)/\(family.limit)".count))
                out += style.dim("(\(family.removed) removed still count until \(family.renews))")
            }
            out += "\n"
        }
        let hidden = usage.families.count - shown.count
        if hidden > 0 { out += style.dim("  other families: 0/\(Roster.limitPerFamily) each\n") }
        out += "\n"
        guard !devices.isEmpty else {
            invocation.console.writeOut(out + "No devices yet. Register one with `betactl add-device TESTER UDID --model CODE`.\n")
            return
        }
        var table = Table(headers: ["UDID", "NAME", "FAMILY", "TESTER", "STATUS", "ADDED"])
        for device in devices {
            // Cells stay unstyled: escape codes would break column widths.
            let status = device.status == .active ? device.status.rawValue : "removed \(device.removedAt.map { CalendarDate($0).description } ?? "")"
            table.rows.append([device.identifier.value, device.name, device.family.rawValue, device.testerName ?? "-", status, CalendarDate(device.addedAt).description])
        }
        invocation.console.writeOut(out + table.render(style: style))
    }

    static func bar(_ usage: FamilyUsage, style: Style) -> String {
        let width = 20
        let filled = min(width, (usage.used * width + usage.limit - 1) / max(usage.limit, 1))
        let text = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        if usage.used >= usage.limit { return style.red(text) }
        if usage.used * 10 >= usage.limit * 9 { return style.yellow(text) }
        return style.green(text)
    }
}
