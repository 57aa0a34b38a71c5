import AppleFormats
import BetaKit
import BetaJSON

/// `betactl add-tester`: creates a tester with a secret page URL.
enum AddTesterCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "add-tester",
        summary: "Add a tester and print their private page URL.",
        arguments: [ArgumentSpec(name: "NAME", help: "The tester's name.")],
        options: [
            .value("--email", "E", "The tester's email (unique)."),
            .repeated("--group", "G", "Put the tester in group G."),
            .repeated("--device", "UDID", "Register a device for the tester."),
            .value("--family", "F", "Family of the --device UDIDs: iphone, ipad, ipod, watch, tv, mac or vision."),
            .json,
        ],
        discussion: "The page URL contains an unguessable token; send it only to the tester.")

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let home = try invocation.openHome()
        let family = try args.value("--family").map { name throws(RosterError) in
            guard let family = DeviceFamily(name: name) else { throw RosterError.unknownFamily(name) }
            return family
        }
        var devices: [NewDevice] = []
        for raw in args.values("--device") {
            let udid = try DeviceIdentifier(raw)
            devices.append(NewDevice(identifier: udid, family: try NewDevice.family(model: nil, family: family, identifier: udid)))
        }
        let request = NewTester(name: args.argument("NAME") ?? "", email: args.value("--email"), groups: args.values("--group"), devices: devices)
        let tester = try Roster(home: home).addTester(request, now: invocation.now)
        let page = tester.pageURL(publicURL: home.settings.publicURL)
        if args.flag("--json") {
            try invocation.printJSON(RosterJSON.tester(tester, publicURL: home.settings.publicURL))
            return
        }
        let email = tester.email.map { " <\($0)>" } ?? ""
        invocation.print("Added tester \(tester.id): \(tester.name)\(email)")
        if !devices.isEmpty {
            invocation.print("Registered \(devices.count) device\(devices.count == 1 ? "" : "s"): \(devices.map(\.identifier.value).joined(separator: ", "))")
        }
        invocation.print("Page: \(invocation.style.bold(page))")
    }
}
