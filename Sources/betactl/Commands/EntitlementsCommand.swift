import AppleFormats
import BetaKit

/// `betactl entitlements`: writes the entitlements plist for an ad hoc build.
enum EntitlementsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "entitlements", summary: "Write the entitlements plist for an ad hoc build of an app.",
        options: [
            .value("--profile", "P", "Imported profile (UUID or name) or a .mobileprovision file."),
            .value("--bundle-id", "ID", "The app's bundle identifier."),
            .value("--output", "FILE", "Write to FILE instead of standard output."),
            .repeated("--allow-profile-type", "TYPE", "Also accept a development or enterprise profile."),
        ], 
        discussion: "Includes application-identifier, the team identifier, get-task-allow false, keychain-access-groups, aps-environment and every other entitlement the profile grants with a concrete value; wildcards such as TEAMID.* are resolved against the bundle id.", group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        guard let reference = args.value("--profile") else { throw invocation.usageError("--profile P is required") }
        guard let bundleID = args.value("--bundle-id"), !bundleID.isEmpty else { throw invocation.usageError("--bundle-id ID is required") }
        let profile = try ProfileArgument.load(reference, invocation: invocation)
        let types = try ProfileArgument.allowedTypes(args.values("--allow-profile-type"), invocation: invocation)
        let entitlements = try AdHocEntitlements.generate(profile: profile, bundleID: bundleID, allowedTypes: types)
        let bytes = try PlistValue.dictionary(entitlements).xmlBytes()
        if let output = args.value("--output") {
            try FileIO.writeAtomically(bytes, to: output)
            invocation.print("Wrote \(entitlements.count) entitlement\(entitlements.count == 1 ? "" : "s") for \(bundleID) to \(output)")
        } else {
            invocation.console.writeOut(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// Resolves `--profile` values: a file path, else an imported profile.
enum ProfileArgument {
    static func load(_ reference: String, invocation: Invocation) throws -> ProvisioningProfile {
        if reference.hasSuffix(".mobileprovision") || reference.contains("/") {
            let bytes = try FileIO.readFile(reference, limit: 8 << 20)
            do {
                return try ProvisioningProfile(bytes: bytes)
            } catch {
                throw CommandFailure(description: "\(reference): \(error)", category: .invalidInput)
            }
        }
        return try Archive(home: try invocation.openHome()).profile(matching: reference)
    }

    static func allowedTypes(_ names: [String], invocation: Invocation) throws -> Set<ProfileType> {
        var types: Set<ProfileType> = [.adHoc]
        for name in names {
            guard let type = ProfileType(rawValue: name), type != .appStore else {
                throw invocation.usageError("--allow-profile-type takes development or enterprise, not \"\(name)\" (App Store builds cannot be installed directly)")
            }
            types.insert(type)
        }
        return types
    }
}
