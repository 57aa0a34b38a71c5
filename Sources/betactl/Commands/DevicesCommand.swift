import AppleFormats
import BetaKit
import BetaJSON

/// `betactl devices`: slot usage per family and every registered device.
enum DevicesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "devices", summary: "Show device slot usage per family and list devices.",
        options: [.flag("--pending", "List only the devices testers registered from the device itself that no ad hoc profile includes yet."), .json],
        discussion: "A device added during the membership year takes a slot in its family; removing it does not give the slot back until the year renews. A device registered from the tester's page is pending until an ad hoc profile betactl sees (imported, or in a released build) includes it: upload those with `betactl export-devices --pending`.")

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let roster = Roster(home: home)
        let pendingOnly = invocation.arguments.flag("--pending")
        let devices = pendingOnly ? try roster.pendingDevices() : try roster.devices()
        let usage = try roster.usage(now: invocation.now)
        if pendingOnly, !invocation.arguments.flag("--json") {
            invocation.console.writeOut(pendingListing(devices, style: invocation.style))
            return
        }
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
        // After `apple sync`, Apple's own count is the truth: say where the roster's differs, and why.
        let apple = AppleAccount(home: home)
        for entry in try apple.ledger(now: invocation.now) {
            if let explanation = entry.explanation { out += "  " + style.yellow("Apple:") + " " + explanation + "\n" }
        }
        let appleStates = try apple.hasSynced() ? try apple.deviceStates() : nil
        out += "\n"
        guard !devices.isEmpty else {
            invocation.console.writeOut(out + "No devices yet. Register one with `betactl add-device TESTER UDID --model CODE`.\n")
            return
        }
        var table = Table(headers: ["UDID", "NAME", "FAMILY", "TESTER", "STATUS", "ADDED"] + (appleStates == nil ? [] : ["APPLE"]))
        for device in devices {
            // Cells stay unstyled: escape codes would break column widths.
            var row = [device.identifier.value, device.name, device.family.rawValue, device.testerName ?? "-", statusLabel(device),
                       CalendarDate(device.addedAt).description]
            if let appleStates { row.append(appleStates[device.identifier.value]?.rawValue ?? "not-registered") }
            table.rows.append(row)
        }
        invocation.console.writeOut(out + table.render(style: style))
    }

    /// `active`, `pending` (active, registered by enrolment, in no ad hoc profile yet) or `removed DAY`.
    static func statusLabel(_ device: Device) -> String {
        if device.status == .removed { return "removed \(device.removedAt.map { CalendarDate($0).description } ?? "")" }
        return device.isPending ? "pending" : device.status.rawValue
    }

    /// `devices --pending`: what to upload to Apple, with the model's marketing name.
    static func pendingListing(_ devices: [Device], style: Style) -> String {
        guard !devices.isEmpty else {
            return "No pending devices: every device testers registered themselves is in an ad hoc profile.\n"
        }
        var table = Table(headers: ["UDID", "NAME", "MODEL", "TESTER", "REGISTERED"])
        for device in devices {
            table.rows.append([device.identifier.value, device.name,
                               device.model.map(DeviceModelName.displayName(forModelCode:)) ?? device.family.displayName,
                               device.testerName ?? "-", CalendarDate(device.addedAt).description])
        }
        let count = devices.count == 1 ? "1 device is" : "\(devices.count) devices are"
        return "\(count) registered here but in no ad hoc profile yet. Upload with `betactl export-devices --pending --output pending.txt`, then regenerate the profile and import it.\n\n"
            + table.render(style: style)
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
