#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// `GET /admin`: device slots per family, devices pending registration with Apple (with Apple's
    /// upload file of them, as `export-devices --pending` writes it) and the other active devices
    /// the ad hoc profile lacks, profiles expiring within 30 days, the latest releases with their
    /// downloads, and the crash groups of the last 7 days.
    func overviewPage(_ call: AdminRequest) async throws -> Response {
        let state = try await actions.deviceState()
        let home = self.home
        let now = self.now
        let (profiles, releases, testers, counts, apple) = try await pool.run {
            let archive = Archive(home: home)
            return (try archive.profiles(), try archive.releases(), try Roster(home: home).testers(), try archive.downloadCounts(),
                    try Self.applePanel(home: home, now: now))
        }
        var chrome = adminChrome("Overview", area: "/admin", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        // Pending devices are missing from every ad hoc profile, so from the current one too: the
        // second list holds only the others (added by hand, or dropped from the profile).
        let waiting = state.devices.filter { state.inProfile($0) == false && !$0.isPending }
        let expiring = profiles.filter { $0.expiresAt.timeIntervalSince(now) <= 30 * 86_400 }
        let crashGroups = try await recentCrashGroups(days: Self.recentCrashDays, now: now)
        return try renderAdmin("admin-overview", chrome, [
            "usage": .list(Self.usageBars(state.usage, all: false)),
            "renews": .string(state.usage.year.renews.description), "inferred": .bool(state.usage.year.isInferred),
            "pending": .list(state.pending.map(Self.deviceRow)), "hasPending": .bool(!state.pending.isEmpty),
            "pendingCount": .string(state.pending.count == 1 ? "1 device" : "\(state.pending.count) devices"),
            "waiting": .list(waiting.map(Self.deviceRow)), "hasWaiting": .bool(!waiting.isEmpty),
            "profile": state.profile.map { ["name": .string($0.name), "uuid": .string($0.uuid)] } ?? .null,
            "expiring": .list(expiring.map { Self.profileRow($0, now: now) }), "hasExpiring": .bool(!expiring.isEmpty),
            "releases": .list(releases.prefix(5).map { Self.releaseRow($0, testers: testers, downloads: counts[$0.id] ?? 0) }),
            "hasReleases": .bool(!releases.isEmpty),
            "crashGroups": .list(crashGroups), "hasCrashGroups": .bool(!crashGroups.isEmpty), "crashDays": .int(Self.recentCrashDays),
            "apple": apple,
        ])
    }

    /// How many days back the overview's crash groups go.
    static let recentCrashDays = 7
}
