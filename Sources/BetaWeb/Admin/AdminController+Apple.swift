#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// `POST /admin/apple/provision`: registers every approved device not yet at Apple, then
    /// regenerates the ad hoc profiles of each active app (and its extensions) and imports them.
    func addApplePages(_ admin: inout RouteGroup) {
        addAdminForm(&admin, "/apple/provision", scope: .admin) { [self] call, _ in
            let home = self.home
            let now = self.now
            do {
                try await pool.run {
                    let account = AppleAccount(home: home)
                    let client = try account.client()
                    let approved = try account.approvedUnregistered().map(\.identifier)
                    if !approved.isEmpty {
                        let result = try account.register(approved, client: client, now: now)
                        if let refused = result.outcomes.first(where: { $0.kind == .refused }) { throw AdminRefusal(status: HTTPStatus(code: 409), message: refused.reason ?? "") }
                    }
                    for bundleID in try Self.activeApps(home: home) {
                        _ = try account.regenerateProfiles(for: bundleID, certificate: nil, client: client, now: now)
                    }
                }
                snapshots.invalidate()
                return Self.seeOther("/admin", notice: .appleProvisioned)
            } catch let error as AppStoreConnectError {
                return try await refusal(call, status: HTTPStatus(code: error.category == .failed ? 502 : 409), message: error.description)
            }
        }
    }

    /// The bundle ids of the apps with an active release, newest first.
    static func activeApps(home: Home) throws -> [String] {
        var apps: [String] = []
        for release in try Archive(home: home).releases(includeRevoked: false).sorted(by: { $0.id > $1.id }) where !apps.contains(release.bundleID) {
            apps.append(release.bundleID)
        }
        return apps
    }

    /// The overview's App Store Connect panel: the key, the last sync, the counts, the ledger, and
    /// the button that registers the approved devices and regenerates the profiles.
    static func applePanel(home: Home, now: Date) throws -> MustacheValue {
        let account = AppleAccount(home: home)
        let status = try account.status(now: now)
        guard let keyID = status.keyID else { return ["connected": false] }
        let approved = try account.approvedUnregistered().count
        let apps = try activeApps(home: home)
        let devices = approved == 1 ? "1 approved device" : "\(approved) approved devices"
        let profiles = apps.isEmpty ? "" : " and regenerate the ad hoc profile\(apps.count == 1 ? "" : "s") of \(apps.joined(separator: ", "))"
        return [
            "connected": true, "keyId": .string(keyID), "team": .string(status.teamID ?? "unknown"),
            "lastSync": .string(status.lastSync.map(Timestamp.string) ?? "never"),
            "appleDevices": .int(status.appleDevices), "appleDisabled": .int(status.appleDisabled),
            "registered": .int(status.registered), "pending": .int(status.pending), "disabled": .int(status.disabled),
            "hasDisabled": .bool(status.disabled > 0),
            "rateLimit": status.rateLimit.map(MustacheValue.string) ?? .null,
            "ledger": .list(status.ledger.compactMap { $0.explanation }.map(MustacheValue.string)),
            "canProvision": .bool(approved > 0 || !apps.isEmpty),
            "button": .string(approved > 0 ? "Register \(devices)\(profiles)" : "Regenerate the ad hoc profile\(apps.count == 1 ? "" : "s") of \(apps.joined(separator: ", "))"),
        ]
    }
}
