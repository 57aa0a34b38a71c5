import AppleFormats
import BetaKit

/// `betactl export-devices`: writes Apple's device upload file.
enum ExportDevicesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "export-devices", summary: "Write the active devices in Apple's upload format (tsv or .deviceids).",
        options: [
            .value("--format", "FORMAT", "tsv (default) or deviceids."),
            .value("--output", "FILE", "Write to FILE instead of standard output."),
            .flag("--pending", "Only the devices testers registered themselves that no ad hoc profile includes yet."),
        ],
        discussion: "Upload the file under Certificates, Identifiers & Profiles > Devices > Register Multiple Devices, then regenerate the ad hoc profile. Devices registered from a tester's page are named as they were registered: the name the tester gave the device, or the tester's name and the model.")

    static func run(_ invocation: Invocation) async throws {
        let formatName = invocation.arguments.value("--format") ?? "tsv"
        guard let format = DeviceListFormat(rawValue: formatName.lowercased()) else {
            throw invocation.usageError("--format \(formatName) is not supported; use tsv or deviceids")
        }
        let home = try invocation.openHome()
        let roster = Roster(home: home)
        let chosen = invocation.arguments.flag("--pending") ? try roster.pendingDevices() : try roster.devices(includeRemoved: false)
        let devices = chosen.map { (identifier: $0.identifier, name: $0.name, platform: $0.family.uploadPlatform) }
        let bytes: [UInt8] = switch format {
        case .tsv: Array(DeviceListTSV.write(devices).utf8)
        case .deviceids: Array(try DeviceListPlist.write(devices))
        }
        if let output = invocation.arguments.value("--output") {
            try FileIO.writeAtomically(bytes, to: output)
            invocation.printError("Wrote \(devices.count) device\(devices.count == 1 ? "" : "s") to \(output).")
        } else {
            invocation.console.writeOut(String(decoding: bytes, as: UTF8.self))
        }
    }
}
