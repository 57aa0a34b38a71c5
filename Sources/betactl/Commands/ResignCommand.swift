import AppleFormats
import BetaKit
import BetaJSON
import CryptoCMS

/// `betactl resign RELEASE --profile P`: re-signs a released build with another profile and publishes it.
enum ResignCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "resign", summary: "Re-sign a released build with another profile and publish it as a new release.",
        arguments: [ArgumentSpec(name: "RELEASE", help: "The release's ID.")],
        options: [
            .value("--profile", "P", "The new profile: an imported profile's UUID or name, or a .mobileprovision file."),
            .value("--notes", "TEXT", "Release notes (default: the original's)."),
            .json,
        ],
        discussion: "Signs every executable again with the code-signing identity (code-identity import) and the new profile, innermost first, with the entitlements the build was signed with (the new team and application identifier, get-task-allow false); a key the profile does not allow is refused by name. The code and its UUIDs do not change, so the original's dSYMs still symbolicate the new release's crashes (a changed UUID is refused before anything is published). The new release keeps the original's notes and groups and names the release it came from; the original stays as it was.",
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        guard let text = invocation.arguments.argument("RELEASE"), let releaseID = Int64(text) else {
            throw invocation.usageError("resign needs the release's ID (see `betactl releases`)")
        }
        guard let reference = invocation.arguments.value("--profile") else {
            throw invocation.usageError("resign needs --profile: an imported profile's UUID or name, or a .mobileprovision file")
        }
        let home = try invocation.openHome()
        let archive = Archive(home: home)
        let profileBytes: [UInt8]
        if reference.hasSuffix(".mobileprovision") || reference.contains("/") {
            profileBytes = try FileIO.readFile(reference, limit: 8 << 20)
        } else {
            profileBytes = try archive.profileBytes(matching: reference)
        }
        guard let stored = try CodeIdentityStore(home: home).current() else {
            throw CommandFailure(description: "no code-signing identity is stored; import the Apple Distribution .p12 with `betactl code-identity import DIST.p12 --password-file F` first")
        }
        let identity: CMSSigningIdentity
        do {
            identity = try CMSSigningIdentity(certificates: Array(stored.certificatePEM.utf8), privateKey: Array(stored.privateKeyPEM.utf8))
        } catch {
            throw CommandFailure(description: "the stored code-signing identity cannot be used: \(error)", category: .failed)
        }
        let devices = try Roster(home: home).devices(includeRemoved: false)
        let result = try archive.resign(releaseID: releaseID, profileBytes: profileBytes, signer: try LibcryptoCodeSigner(identity: identity),
                                        notes: invocation.arguments.value("--notes"), devices: devices, now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(ResignJSON(release: result.release.id, resignedFrom: releaseID, profile: result.release.profileName,
                                                warnings: result.validation.warnings.map(\.description)))
            return
        }
        invocation.print("Published release \(result.release.id): release \(releaseID) re-signed with \"\(result.release.profileName ?? "the new profile")\".")
        for warning in result.validation.warnings { invocation.warn(warning.description) }
    }

    struct ResignJSON: Encodable {
        var release: Int64
        var resignedFrom: Int64
        var profile: String?
        var warnings: [String]
    }
}
