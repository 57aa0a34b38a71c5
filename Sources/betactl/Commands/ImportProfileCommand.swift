import AppleFormats
import BetaKit

/// `betactl import-profile FILE`: stores a provisioning profile in the archive.
enum ImportProfileCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "import-profile", summary: "Import a .mobileprovision file.",
        arguments: [ArgumentSpec(name: "FILE", help: "The provisioning profile.")], group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let path = invocation.arguments.argument("FILE") ?? ""
        let bytes = try FileIO.readFile(path, limit: 8 << 20)
        let home = try invocation.openHome()
        let result: Archive.ProfileImport
        do {
            result = try Archive(home: home).importProfile(bytes: bytes, now: invocation.now)
        } catch let error as ProvisioningProfileError {
            throw CommandFailure(description: "\(path): \(error)", category: .invalidInput)
        }
        let profile = result.profile
        invocation.print("\(result.isNew ? "Imported" : "Updated") \(profile.type) profile \"\(profile.name)\" (\(profile.uuid))")
        invocation.print("  app id   \(profile.applicationIdentifier ?? "-")")
        invocation.print("  team     \(profile.teamName ?? "") (\(profile.teamIdentifier))")
        invocation.print("  devices  \(profile.provisionsAllDevices ? "all (enterprise)" : String(profile.provisionedDevices?.count ?? 0))")
        invocation.print("  expires  \(Timestamp.string(profile.expirationDate))")
        if let signer = profile.signer {
            invocation.print("  signed   \(signer.subject.commonName ?? signer.subject.description), valid \(CalendarDate(signer.notBefore)) to \(CalendarDate(signer.notAfter))")
        }
        if profile.isExpired(at: invocation.now) {
            invocation.warn("the profile expired on \(CalendarDate(profile.expirationDate)); builds signed with it will not launch")
        }
    }
}
