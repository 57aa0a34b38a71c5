import BetaKit

/// `betactl remove-tester`: removes a tester and their devices.
enum RemoveTesterCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "remove-tester", summary: "Remove a tester and their devices (the devices' slots stay used until renewal).",
        arguments: [ArgumentSpec(name: "TESTER", help: "The tester's id, email or exact name.")])

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let (tester, removed) = try Roster(home: home).removeTester(invocation.arguments.argument("TESTER") ?? "", now: invocation.now)
        let year = home.settings.membershipYear(at: invocation.now)
        invocation.print("Removed tester \(tester.id) (\(tester.name)); their page link no longer works.")
        if !removed.isEmpty {
            invocation.print("Removed \(removed.count) device\(removed.count == 1 ? "" : "s"); \(removed.count == 1 ? "its slot stays" : "their slots stay") used until the membership renews on \(year.renews).")
        }
    }
}
