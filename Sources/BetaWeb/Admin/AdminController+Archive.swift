#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Multipart
import Mustache

extension AdminController {
    /// Profiles: upload, list, and one profile compared with the roster.
    func addProfilePages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/profiles") { [self] call in try await profilesPage(call, failure: nil) }
        addAdminUpload(&admin, "/profiles", scope: .write, bodyLimit: WebActions.profileLimit + (1 << 20)) { [self] call in
            try await uploadAnswer(call, page: "/admin/profiles", failurePage: { [self] failure in try await profilesPage(call, failure: failure) }) {
                let request = call.request
                let directory = home.temporaryPath
                let parts = try await pool.run {
                    try FormParts.parse(request, limits: WebActions.profileFormLimits, spoolDirectory: directory)
                }
                guard Self.csrfMatches(call, formValue: parts.text("csrf")) else { throw AdminRefusal(status: .forbidden, message: Self.csrfRefusal) }
                guard let part = parts.first(named: "profile"), part.value.count > 0 else {
                    throw APIProblem(.missingField, "choose a .mobileprovision file to upload")
                }
                let bytes = try part.value.readAll()
                let home = self.home
                let now = self.now
                let imported = try await pool.run { try Archive(home: home).importProfile(bytes: bytes, now: now) }
                snapshots.invalidate()
                return "/admin/profiles/\(imported.profile.uuid)?notice=\(AdminNotice.profileImported.rawValue)"
            }
        }
        addAdminPage(&admin, "/profiles/:uuid") { [self] call in try await profilePage(call) }
    }

    /// Symbols: what is missing, an upload form, and what is archived.
    func addSymbolPages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/symbols") { [self] call in try await symbolsPage(call, failure: nil) }
        addAdminUpload(&admin, "/symbols", scope: .write, bodyLimit: configuration.maxUploadBytes) { [self] call in
            try await uploadAnswer(call, page: "/admin/symbols", failurePage: { [self] failure in try await symbolsPage(call, failure: failure) }) {
                _ = try await actions.uploadSymbols(call.request, extraFields: ["csrf"]) { upload in
                    guard Self.csrfMatches(call, formValue: try upload.text("csrf")) else { throw AdminRefusal(status: .forbidden, message: Self.csrfRefusal) }
                }
                return "/admin/symbols?notice=\(AdminNotice.symbolsAdded.rawValue)"
            }
        }
    }

    /// `GET /admin/profiles`.
    func profilesPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let home = self.home
        let profiles = try await pool.run { try Archive(home: home).profiles() }
        var chrome = adminChrome("Profiles", area: "/admin/profiles", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        return try renderAdmin("admin-profiles", chrome, [
            "profiles": .list(profiles.map { Self.profileRow($0, now: now) }), "hasProfiles": .bool(!profiles.isEmpty),
        ], status: failure?.status ?? .ok)
    }

    /// `GET /admin/profiles/<uuid>`: the profile against the roster.
    func profilePage(_ call: AdminRequest) async throws -> Response {
        let reference = try call.request.parameters.require("uuid")
        let home = self.home
        let now = self.now
        let checked = try await pool.run { () -> (StoredProfile, ProfileRosterReport)? in
            let archive = Archive(home: home)
            guard let stored = try archive.profiles().first(where: { $0.uuid == reference.lowercased() || $0.uuid == reference }) else { return nil }
            let profile = try archive.profile(matching: stored.uuid)
            return (stored, ProfileRosterCheck.check(profile: profile, devices: try Roster(home: home).devices(includeRemoved: true), now: now))
        }
        guard let (stored, report) = checked else { throw WebError.notFound }
        var chrome = adminChrome(stored.name, area: "/admin/profiles", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        let missing = Dictionary(grouping: report.missingActiveDevices) { $0.testerName ?? "No tester" }
        return try renderAdmin("admin-profile", chrome, [
            "profile": Self.profileRow(stored, now: now),
            "missingByTester": .list(missing.keys.sorted().map { tester in
                ["tester": .string(tester), "devices": .list((missing[tester] ?? []).map(Self.deviceRow))]
            }),
            "hasMissing": .bool(!report.missingActiveDevices.isEmpty), "hasPending": .bool(!report.pendingDevices.isEmpty),
            "unknown": .list(report.unknownDevices.map { .string($0.value) }), "hasUnknown": .bool(!report.unknownDevices.isEmpty),
            "removed": .list(report.removedDevices.map(Self.deviceRow)), "hasRemoved": .bool(!report.removedDevices.isEmpty),
            "findings": .list(report.findings.map { ["severity": .string($0.severity.rawValue), "message": .string($0.message)] }),
            "ok": .bool(report.findings.isEmpty),
            "certificates": .list(report.profile.developerCertificates.map {
                ["name": .string($0.subject.commonName ?? $0.subject.description), "expires": .string(CalendarDate($0.notAfter).description)]
            }),
        ])
    }

    /// A profile as the dashboard's tables show it.
    static func profileRow(_ profile: StoredProfile, now: Date) -> MustacheValue {
        let days = Int((profile.expiresAt.timeIntervalSince(now) / 86_400).rounded(.down))
        return ["uuid": .string(profile.uuid), "name": .string(profile.name), "type": .string(profile.type.rawValue),
                "appId": .string(profile.applicationIdentifier ?? "-"), "devices": .string(profile.deviceCount.map(String.init) ?? "all"),
                "expires": .string(CalendarDate(profile.expiresAt).description), "expired": .bool(days < 0),
                "expiresSoon": .bool(days >= 0 && days <= 30), "days": .int(days)]
    }

    /// `GET /admin/symbols`.
    func symbolsPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let home = self.home
        let (symbols, missing) = try await pool.run { (try Archive(home: home).symbols(), try Archive(home: home).slicesWithoutSymbols()) }
        var chrome = adminChrome("Symbols", area: "/admin/symbols", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        return try renderAdmin("admin-symbols", chrome, [
            "missing": .list(missing.map { ["release": .string(String($0.releaseID)), "path": .string($0.slice.path),
                                            "arch": .string($0.slice.architecture), "uuid": .string($0.slice.uuid ?? "(no UUID)")] }),
            "hasMissing": .bool(!missing.isEmpty),
            "symbols": .list(symbols.reversed().map { ["uuid": .string($0.uuid), "arch": .string($0.architecture), "dsym": .string($0.dsymName),
                                                       "releases": .string($0.releaseIDs.map(String.init).joined(separator: ", ")),
                                                       "added": .string(CalendarDate($0.addedAt).description)] }),
            "hasSymbols": .bool(!symbols.isEmpty),
        ], status: failure?.status ?? .ok)
    }
}
