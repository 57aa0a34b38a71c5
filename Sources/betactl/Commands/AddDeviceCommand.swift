import AppleFormats
import BetaKit
import BetaJSON

/// `betactl add-device`: registers a device to a tester, within Apple's limits.
enum AddDeviceCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "add-device", summary: "Register a tester's device (counts toward Apple's 100 per family per year).",
        arguments: [
            ArgumentSpec(name: "TESTER", help: "The tester's id, email or exact name."),
            ArgumentSpec(name: "UDID", help: "The device's UDID (40 hex, 8-16 hex with a dash, or a Mac's UUID)."),
        ],
        options: [
            .value("--name", "N", "The device name shown in Apple's portal (default: \"<tester>'s <family>\")."),
            .value("--model", "CODE", "The model code, e.g. iPhone15,2; sets the family."),
            .value("--family", "F", "iphone, ipad, ipod, watch, tv, mac or vision (required without --model)."),
            .json,
        ])

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let udid = try DeviceIdentifier(args.argument("UDID") ?? "")
        let family = try args.value("--family").map { name throws(RosterError) in
            guard let family = DeviceFamily(name: name) else { throw RosterError.unknownFamily(name) }
            return family
        }
        let model = args.value("--model")
        if model == nil, family == nil, udid.form != .uuid {
            throw invocation.usageError("add-device needs --model CODE (e.g. iPhone15,2) or --family F to know which of Apple's device limits \(udid) counts against")
        }
        let resolved = try NewDevice.family(model: model, family: family, identifier: udid)
        let home = try invocation.openHome()
        let request = NewDevice(identifier: udid, name: args.value("--name") ?? "", family: resolved, model: model)
        let addition = try Roster(home: home).addDevice(request, tester: args.argument("TESTER"), now: invocation.now)
        if args.flag("--json") {
            try invocation.printJSON(RosterJSON.device(addition.device))
            return
        }
        let device = addition.device
        invocation.print("Registered \(device.family.displayName) \(device.identifier) (\(device.name)) for \(device.testerName ?? "no tester").")
        let usage = try Roster(home: home).usage(now: invocation.now)
        if let family = usage.families.first(where: { $0.family == device.family }) {
            let note = addition.reusedSlot ? " (re-added this membership year, so no new slot was taken)" : ""
            invocation.print("\(device.family.displayName) slots: \(family.used)/\(family.limit) used until \(family.renews)\(note).")
        }
        invocation.print(invocation.style.dim("Regenerate the ad hoc profile to include it: export with `betactl export-devices` and upload to Apple."))
    }
}
