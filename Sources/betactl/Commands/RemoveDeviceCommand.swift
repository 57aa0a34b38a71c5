import AppleFormats
import BetaKit

/// `betactl remove-device`: removes a device; its slot stays used until renewal.
enum RemoveDeviceCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "remove-device", summary: "Remove a device (its slot stays used until the membership renews).",
        arguments: [ArgumentSpec(name: "UDID", help: "The device's UDID.")])

    static func run(_ invocation: Invocation) async throws {
        let udid = try DeviceIdentifier(invocation.arguments.argument("UDID") ?? "")
        let home = try invocation.openHome()
        let device = try Roster(home: home).removeDevice(udid, now: invocation.now)
        let year = home.settings.membershipYear(at: invocation.now)
        invocation.print("Removed \(device.family.displayName) \(device.identifier) (\(device.name)).")
        invocation.print("Its slot stays used until the membership renews on \(year.renews); Apple does not return slots earlier.")
    }
}
