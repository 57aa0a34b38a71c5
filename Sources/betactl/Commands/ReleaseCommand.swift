#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaJSON

/// `betactl release PATH`: validates a build and publishes it with its symbols.
enum ReleaseCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "release", summary: "Validate and publish an .ipa or .xcarchive with its dSYMs.",
        arguments: [ArgumentSpec(name: "PATH", help: "The .ipa, or an .xcarchive (folder or zip) whose app is packaged into an ipa.")],
        options: [
            .repeated("--dsym", "PATH", "A .dSYM (folder or zip) or .xcarchive with the build's symbols."),
            .value("--notes", "TEXT", "Release notes."),
            .value("--notes-file", "F", "Read release notes from F."),
            .repeated("--group", "G", "Offer the release only to group G (default: everyone)."),
            .repeated("--allow-profile-type", "TYPE", "Also accept a development or enterprise profile."),
            .flag("--allow-missing-symbols", "Release even when executables have no dSYM (they are still recorded)."),
            .flag("--again", "Publish a build that was already released (the same package SHA-256) as a new release."),
            .flag("--allow-unsigned", "Simulator builds only: release without a verified code signature or profile (device builds are refused with it)."),
        ],
        discussion: "Refuses, listing every reason at once, when the embedded profile is not ad hoc or has expired, does not cover the bundle id, the signed entitlements are not allowed by it, the code signature would not verify on a device (a page, Info.plist, entitlement or resource changed after signing, a CMS signature that does not match, a signing certificate not in the profile; each refusal names the file), or an executable slice has no matching dSYM. Publishing is atomic: an interrupted release leaves no trace. A build already released (the same package SHA-256; for an .xcarchive, the ipa packaged from it) is refused naming that release, unless --again is given. The new symbols are then indexed into <home>/cache/symbols/ so crash reports symbolicate at once; an index that cannot be built is only a warning (symbolicate rebuilds it).",
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let path = args.argument("PATH") ?? ""
        if args.value("--notes") != nil && args.value("--notes-file") != nil {
            throw invocation.usageError("give either --notes or --notes-file, not both")
        }
        var notes = args.value("--notes")
        if let file = args.value("--notes-file") {
            let bytes = try FileIO.readFile(file, limit: 1 << 20)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CommandFailure(description: "\(file) is not UTF-8 text; save the notes as UTF-8", category: .invalidInput)
            }
            notes = text
        }
        let policy = ReleasePolicy(allowedProfileTypes: try ProfileArgument.allowedTypes(args.values("--allow-profile-type"), invocation: invocation),
                                   allowMissingSymbols: args.flag("--allow-missing-symbols"), allowUnsigned: args.flag("--allow-unsigned"))
        let home = try invocation.openHome()
        let devices = try Roster(home: home).devices(includeRemoved: false)
        let progress = ProgressLine(console: invocation.console, environment: invocation.environment)
        let archive = Archive(home: home)
        let result: ReleaseResult
        do {
            defer { progress.finish() }
            result = try archive.release(
                ReleaseRequest(path: path, dsymPaths: args.values("--dsym"), notes: notes, groups: args.values("--group"), policy: policy,
                               again: args.flag("--again")),
                devices: devices, now: invocation.now, progress: progress.handler)
        }
        for warning in result.validation.warnings { invocation.warn(warning.description) }
        await SymbolIndexing.indexArchived(result.addedSymbols, archive: archive, invocation: invocation)
        let release = result.release
        let name = release.displayName ?? release.bundleID
        invocation.print("Released \(name) \(release.version ?? "?") (\(release.build ?? "?")) as release \(release.id)")
        invocation.print("  offered to    \(ArchiveJSON.offerSummary(release, testers: try Roster(home: home).testers()))")
        invocation.print("  testers install it from their own page (`betactl show-tester NAME` prints its link)")
        invocation.print("  symbols       \(result.addedSymbols.count) new slice\(result.addedSymbols.count == 1 ? "" : "s") archived")
        if let earlier = result.earlierRelease {
            invocation.print("  again         the same package as release \(earlier)")
        }
        CrashFollowUp.processRequeued(home: home, invocation: invocation)
    }
}
