import AppleFormats
import BetaKit
import BetaJSON

/// `betactl releases`: every release, newest first.
enum ReleasesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "releases", summary: "List releases, newest first.",
        options: [.flag("--all", "Also list releases a re-signed build superseded (the automatic provisioning flow's)."), .json],
        discussion: "A release the automatic provisioning flow re-signed for new devices takes the place of the one it came from on testers' pages; the old one stays downloadable and is listed with --all.",
        group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let all = try Archive(home: home).releases()
        let releases = invocation.arguments.flag("--all") ? all : all.filter { $0.supersededBy == nil }
        if invocation.arguments.flag("--json") {
            let testers = try Roster(home: home).testers()
            try invocation.printJSON(releases.map { ArchiveJSON.release($0, testers: testers) })
            return
        }
        guard !releases.isEmpty else {
            invocation.print("No releases yet. Publish one with `betactl release PATH`.")
            return
        }
        var table = Table(headers: ["ID", "APP", "VERSION", "GROUPS", "CREATED", "STATUS"])
        for release in releases {
            table.rows.append([String(release.id), release.displayName ?? release.bundleID, "\(release.version ?? "?") (\(release.build ?? "?"))",
                               release.groups.isEmpty ? "everyone" : release.groups.joined(separator: ","), CalendarDate(release.createdAt).description,
                               release.revokedAt.map { "revoked \(CalendarDate($0))" } ?? release.supersededBy.map { "superseded by \($0)" } ?? "active"])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
    }
}

/// `betactl show-release ID`: one release with its executables and their symbols.
enum ShowReleaseCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "show-release", summary: "Show a release, its executables and their symbols.",
        arguments: [ArgumentSpec(name: "ID", help: "The release number.")], options: [.json], group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let home = try invocation.openHome()
        let archive = Archive(home: home)
        let text = invocation.arguments.argument("ID") ?? ""
        guard let id = Int64(text) else { throw ArchiveError.unknownRelease(text) }
        let release = try archive.release(id: id)
        let slices = try archive.slices(ofRelease: id)
        let testers = try Roster(home: home).testers()
        let downloads = try archive.downloads(ofRelease: id)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(ArchiveJSON.release(release, testers: testers, slices: slices, downloads: downloads))
            return
        }
        invocation.print("Release \(release.id): \(release.displayName ?? release.bundleID) \(release.version ?? "?") (\(release.build ?? "?"))")
        invocation.print("  bundle id     \(release.bundleID)")
        invocation.print("  status        \(release.revokedAt.map { "revoked \(Timestamp.string($0))" } ?? "active")")
        invocation.print("  created       \(Timestamp.string(release.createdAt)) from \(release.sourceName)")
        invocation.print("  sha256        \(release.packageBlob.hex)")
        if let original = release.resignedFrom { invocation.print("  re-signed     from release \(original)") }
        if let newer = release.supersededBy { invocation.print("  superseded    by release \(newer), re-signed for new devices (testers see that one)") }
        invocation.print("  profile       \(release.profileName ?? "-") (\(release.profileType?.description ?? "?"), expires \(release.profileExpiresAt.map { CalendarDate($0).description } ?? "?"))")
        invocation.print("  groups        \(release.groups.isEmpty ? "everyone" : release.groups.joined(separator: ", "))")
        invocation.print("  offered to    \(ArchiveJSON.offerSummary(release, testers: testers))")
        if let notes = release.notes { invocation.print("  notes         \(notes)") }
        var table = Table(headers: ["EXECUTABLE", "KIND", "ARCH", "UUID", "MIN OS", "SYMBOLS"])
        for slice in slices {
            table.rows.append([slice.path, slice.kind, slice.architecture, slice.uuid ?? "-", slice.minimumOS ?? "-", slice.hasSymbols ? "yes" : "MISSING"])
        }
        invocation.print("")
        invocation.console.writeOut(table.render(style: invocation.style))
        invocation.print("")
        if downloads.isEmpty {
            invocation.print("No completed downloads yet.")
        } else {
            var downloaded = Table(headers: ["DOWNLOADED", "TESTER", "DEVICE"])
            for download in downloads {
                downloaded.rows.append([Timestamp.string(download.downloadedAt), download.testerName ?? "-",
                                        download.deviceName.map { name in "\(name) (\(download.udid ?? ""))" } ?? download.udid ?? "unknown"])
            }
            invocation.console.writeOut(downloaded.render(style: invocation.style))
        }
    }
}

/// `betactl revoke ID`: hides a release from testers, keeping its symbols.
enum RevokeCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "revoke", summary: "Hide a release from testers (its symbols are kept forever).",
        arguments: [ArgumentSpec(name: "ID", help: "The release number.")], group: .releases)

    static func run(_ invocation: Invocation) async throws {
        let text = invocation.arguments.argument("ID") ?? ""
        guard let id = Int64(text) else { throw ArchiveError.unknownRelease(text) }
        let release = try Archive(home: try invocation.openHome()).revoke(id: id, now: invocation.now)
        invocation.print("Revoked release \(release.id) (\(release.displayName ?? release.bundleID) \(release.version ?? "")); its symbols stay archived for crash reports.")
    }
}
