import BetaKit

/// `betactl init`: creates a home or changes its settings.
enum InitCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "init",
        summary: "Create a betactl home, or change the settings of an existing one.",
        options: [
            .value("--team-id", "TEAMID", "Your Apple Developer team id (10 letters and digits)."),
            .value("--membership-renewal", "YYYY-MM-DD", "The day your membership renews; device slots come back then."),
            .value("--public-url", "URL", "The https URL testers reach `betactl serve` at."),
            .value("--brand-name", "NAME", "The name testers' pages show (default Beta)."),
            .value("--brand-color", "#RRGGBB", "The accent colour of testers' pages (default #0a66c2)."),
        ],
        discussion: "Re-running init on an existing home changes only the settings given and says what changed.",
        group: .setup)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        var renewal: CalendarDate?
        if let raw = args.value("--membership-renewal") {
            guard let parsed = CalendarDate(iso: raw) else { throw HomeError.invalidRenewalDate(raw) }
            renewal = parsed
        }
        let change = HomeSettingsChange(teamID: args.value("--team-id"), membershipRenewal: renewal, publicURL: args.value("--public-url"),
                                        brandName: args.value("--brand-name"), brandColor: args.value("--brand-color"))
        let result = try Home.initialise(at: invocation.homePath, change: change, now: invocation.now)
        if let notice = result.home.permissionNotice { invocation.note(notice) }
        let settings = result.home.settings
        let style = invocation.style
        if result.created {
            invocation.print("Created betactl home at \(style.bold(result.home.path))")
            describe(settings, invocation)
            if settings.membershipRenewal == nil {
                invocation.print(style.dim("No --membership-renewal given: device slots are counted from the anniversary of today (\(CalendarDate(settings.createdAt))). Set the real date with `betactl init --membership-renewal YYYY-MM-DD`."))
            }
            return
        }
        let before = result.previous
        var changes: [String] = []
        if before?.teamID != settings.teamID { changes.append("team id: \(before?.teamID ?? "unset") → \(settings.teamID ?? "unset")") }
        if before?.membershipRenewal != settings.membershipRenewal {
            changes.append("membership renewal: \(before?.membershipRenewal?.description ?? "unset") → \(settings.membershipRenewal?.description ?? "unset")")
        }
        if before?.publicURL != settings.publicURL { changes.append("public URL: \(before?.publicURL ?? "unset") → \(settings.publicURL)") }
        if before?.brandName != settings.brandName { changes.append("brand name: \(before?.brandName ?? "unset") → \(settings.brandName)") }
        if before?.brandColor != settings.brandColor { changes.append("brand colour: \(before?.brandColor ?? "unset") → \(settings.brandColor)") }
        if changes.isEmpty {
            invocation.print("Home at \(result.home.path) is already initialised; nothing changed.")
            describe(settings, invocation)
        } else {
            invocation.print("Updated home at \(result.home.path):")
            for line in changes { invocation.print("  " + line) }
        }
    }

    static func describe(_ settings: HomeSettings, _ invocation: Invocation) {
        invocation.print("  team id:            \(settings.teamID ?? "unset (set with --team-id)")")
        invocation.print("  membership renewal: \(settings.membershipRenewal?.description ?? "unset")")
        invocation.print("  public URL:         \(settings.publicURL)")
        invocation.print("  brand:              \(settings.brandName) \(settings.brandColor)")
    }
}
