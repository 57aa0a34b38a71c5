#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// `betactl check-entitlements APP`: compares each executable's signed entitlements with its profile.
enum CheckEntitlementsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "check-entitlements", summary: "Check the entitlements each executable was signed with against its profile.",
        arguments: [ArgumentSpec(name: "APP", help: "An .ipa or .xcarchive (folder or zip).")],
        options: [.value("--profile", "P", "Check against this profile (UUID, name or file) instead of each bundle's embedded one.")],
        discussion: "A mismatch makes iOS refuse the install with \"integrity could not be verified\"; each one is reported with the key, the app's value and what the profile allows.", group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let path = invocation.arguments.argument("APP") ?? ""
        let override = try invocation.arguments.value("--profile").map { try ProfileArgument.load($0, invocation: invocation) }
        let work = FileManager.default.temporaryDirectory.path + "/betactl-check-\(UInt32.random(in: 0 ... UInt32.max))"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: work) }
        let artifact = try ArtifactIngestor(workDirectory: work).ingest(path: path)
        guard let app = artifact.app else { throw CommandFailure(description: "\(path) is a dSYM, not an app; pass an .ipa or .xcarchive", category: .invalidInput) }
        // Bundle problems (a missing executable, an unreadable Mach-O) would otherwise leave
        // nothing to check and end in a silent success.
        // A profile given by hand replaces the embedded ones, missing or unreadable.
        let profileProblems = app.problems.filter(\.isAboutTheProfile)
        var problems = app.problems.filter { override == nil || !$0.isAboutTheProfile }.map(\.description)
        let checked = app.executables.filter { $0.kind != .framework }
        if checked.isEmpty && problems.isEmpty {
            problems.append("\(app.bundlePath): no executables to check; the app bundle holds no main executable or extensions")
        }
        for executable in checked {
            guard let profile = override ?? executable.profile else {
                // Said once: the bundle's own problem already names its missing or broken profile.
                let bundle = String(executable.path[..<(executable.path.lastIndex(of: "/") ?? executable.path.startIndex)])
                if !profileProblems.contains(where: { $0.path == bundle || $0.path == bundle + "/embedded.mobileprovision" }) {
                    problems.append("\(executable.path): no embedded.mobileprovision to check against; pass --profile")
                }
                continue
            }
            let refusals = ReleaseValidator.entitlementRefusals(executable, profile: profile)
            if refusals.isEmpty {
                invocation.print("\(executable.path): \(executable.slices.first?.entitlements?.count ?? 0) entitlements, all allowed by \"\(profile.name)\"")
            }
            problems += refusals.map { $0.description }
        }
        guard problems.isEmpty else {
            throw CommandFailure(description: "\(problems.count) entitlement problem\(problems.count == 1 ? "" : "s"):\n  - " + problems.joined(separator: "\n  - "))
        }
    }
}
