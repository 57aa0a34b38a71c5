import AppleFormats
import BetaKit
import BetaJSON

/// `betactl profiles`: lists imported profiles.
enum ProfilesCommand: BetactlCommand {
    static let spec = CommandSpec(name: "profiles", summary: "List imported provisioning profiles.", options: [.json], group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let profiles = try Archive(home: try invocation.openHome()).profiles()
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(profiles.map(ArchiveJSON.profile))
            return
        }
        guard !profiles.isEmpty else {
            invocation.print("No profiles yet. Import one with `betactl import-profile FILE`.")
            return
        }
        var table = Table(headers: ["UUID", "NAME", "TYPE", "APP ID", "DEVICES", "EXPIRES"])
        for profile in profiles {
            let expires = CalendarDate(profile.expiresAt).description + (profile.expiresAt <= invocation.now ? " (expired)" : "")
            table.rows.append([profile.uuid, profile.name, profile.type.rawValue, profile.applicationIdentifier ?? "-",
                               profile.deviceCount.map(String.init) ?? "all", expires])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
    }
}
