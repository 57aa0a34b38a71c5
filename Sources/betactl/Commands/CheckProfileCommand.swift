import AppleFormats
import BetaKit
import BetaJSON

/// `betactl check-profile [UUID|NAME]`: compares a profile with the roster and the calendar.
enum CheckProfileCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "check-profile", summary: "Compare a profile with the roster: missing devices, expiry, certificates.",
        arguments: [ArgumentSpec(name: "PROFILE", help: "UUID or name (default: the ad hoc profile that expires last).", isOptional: true)],
        options: [.json], 
        discussion: "Exits 1 when the profile has expired. Active devices missing from the profile are listed by tester: they cannot install until the profile is regenerated.", group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let archive = Archive(home: home)
        let reference: String
        if let given = invocation.arguments.argument("PROFILE") {
            reference = given
        } else {
            let candidates = try archive.profiles()
            guard let chosen = candidates.first(where: { $0.type == .adHoc }) ?? candidates.first else {
                throw ArchiveError.unknownProfile("(default)", known: [])
            }
            reference = chosen.uuid
        }
        let stored = try archive.storedProfile(matching: reference)
        let profile = try archive.profile(matching: stored.uuid)
        let devices = try Roster(home: home).devices(includeRemoved: true)
        let report = ProfileRosterCheck.check(profile: profile, devices: devices, now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(ArchiveJSON.check(report, stored: stored))
        } else {
            invocation.print("\(profile.type) profile \"\(profile.name)\" (\(profile.uuid)), expires \(CalendarDate(profile.expirationDate))")
            if report.findings.isEmpty {
                invocation.print("Every active device is in the profile; nothing expires within 14 days.")
            }
            for finding in report.findings where finding.severity == .warning {
                invocation.print(invocation.style.yellow("warning:") + " " + finding.message)
            }
        }
        let errors = report.findings.filter { $0.severity == .error }.map(\.message)
        if !errors.isEmpty { throw CommandFailure(description: errors.joined(separator: "\nerror: ")) }
    }
}
