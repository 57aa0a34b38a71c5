import AppleFormats
import BetaKit
import BetaJSON

/// `betactl requests`: the devices that enrolled themselves and wait for approval.
enum RequestsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "requests", summary: "List the devices waiting for approval (enrolled from a tester's link).",
        options: [.json],
        discussion: "A device that enrols itself from a tester's page takes no slot until it is approved with `betactl approve-device UDID` (or the dashboard, or the API). `betactl reject-device UDID` drops a request; it frees nothing because it took nothing. `betactl approval-rule` approves some requests as they arrive.")

    static func run(_ invocation: Invocation) async throws {
        let requests = DeviceRequests(home: try invocation.openHome())
        let open = try requests.open()
        let rule = try requests.rule()
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(DeviceRequestJSON.list(open, rule: rule))
            return
        }
        var out = "Approval rule: \(rule)\n\n"
        guard !open.isEmpty else {
            invocation.console.writeOut(out + "No devices waiting for approval.\n")
            return
        }
        var table = Table(headers: ["UDID", "NAME", "MODEL", "TESTER", "REQUESTED", "SIGNATURE"])
        for request in open {
            table.rows.append([request.udid.value, request.deviceName ?? "-",
                               request.model.map(DeviceModelName.displayName(forModelCode:)) ?? request.family.displayName,
                               request.testerName, CalendarDate(request.requestedAt).description, request.verified ? "apple" : "UNVERIFIED"])
        }
        out += "\(open.count) device\(open.count == 1 ? "" : "s") waiting. Approve with `betactl approve-device UDID`, reject with `betactl reject-device UDID`.\n\n"
        invocation.console.writeOut(out + table.render(style: invocation.style))
    }
}

/// `betactl approve-device`: registers a requested device, taking a slot.
enum ApproveDeviceCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "approve-device", summary: "Approve a device's request: register it to its tester (takes a slot).",
        arguments: [ArgumentSpec(name: "UDID", help: "The requesting device's UDID (see `betactl requests`).")],
        options: [.json],
        discussion: "The device goes through the same slot rule as `add-device`: when its family's slots are used up it is refused, naming the renewal date, and the request stays open. Once approved it is pending: upload it with `betactl export-devices --pending`.")

    static func run(_ invocation: Invocation) async throws {
        let udid = try DeviceIdentifier(invocation.arguments.argument("UDID") ?? "")
        let addition = try DeviceRequests(home: try invocation.openHome()).approve(udid, now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(DeviceRequestJSON.approval(addition))
            return
        }
        let device = addition.device
        invocation.print("Approved \(device.family.displayName) \(device.identifier) (\(device.name)) for \(device.testerName ?? "no tester").")
        invocation.print(addition.reusedSlot ? "It already held a slot this membership year, so none was taken."
                                             : "It takes a slot. Upload it to Apple with `betactl export-devices --pending`.")
    }
}

/// `betactl reject-device`: drops a device's request.
enum RejectDeviceCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "reject-device", summary: "Reject a device's request (it took no slot, so none is freed).",
        arguments: [ArgumentSpec(name: "UDID", help: "The requesting device's UDID (see `betactl requests`).")],
        options: [.json])

    static func run(_ invocation: Invocation) async throws {
        let udid = try DeviceIdentifier(invocation.arguments.argument("UDID") ?? "")
        let request = try DeviceRequests(home: try invocation.openHome()).reject(udid, now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(DeviceRequestJSON.rejection(request))
            return
        }
        invocation.print("Rejected the request of \(request.family.displayName) \(request.udid) from \(request.testerName). It held no slot.")
    }
}

/// `betactl approval-rule`: which requests are approved as they arrive.
enum ApprovalRuleCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "approval-rule", summary: "Show or set which device requests are approved as they arrive.",
        arguments: [ArgumentSpec(name: "ACTION", help: "show (the default) or set.", isOptional: true)],
        options: [
            .value("--group", "GROUP", "set: approve the requests of testers in GROUP (see `add-tester --group`)."),
            .flag("--all", "set: approve every request."),
            .flag("--off", "set: every request waits for approval (the default)."),
            .json,
        ],
        discussion: "An approved request takes a slot at once, under the family limit; requests the rule does not cover wait for `betactl approve-device`. The rule applies to replies arriving after it is set.")

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let requests = DeviceRequests(home: try invocation.openHome())
        switch args.argument("ACTION") ?? "show" {
        case "show":
            break
        case "set":
            let group = args.value("--group")
            let chosen = [group != nil, args.flag("--all"), args.flag("--off")].filter { $0 }.count
            guard chosen == 1 else {
                throw invocation.usageError("approval-rule set needs exactly one of --group GROUP, --all or --off")
            }
            let rule: ApprovalRule = group.map(ApprovalRule.group) ?? (args.flag("--all") ? .all : .off)
            try requests.setRule(rule, now: invocation.now)
        case let other:
            throw invocation.usageError("approval-rule \(other) is not an action; use show or set")
        }
        let rule = try requests.rule()
        if args.flag("--json") {
            try invocation.printJSON(DeviceRequestJSON.rule(rule))
            return
        }
        invocation.print("Approval rule: \(rule)")
    }
}
