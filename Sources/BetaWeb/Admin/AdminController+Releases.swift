#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Mustache
import BetaJSON

extension AdminController {
    /// Releases: the upload form (with a progress bar when JavaScript runs), the list with download
    /// counts, one release with its executables and downloads, and revoking.
    func addReleasePages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/releases") { [self] call in try await releasesPage(call, failure: nil) }
        addAdminUpload(&admin, "/releases", scope: .write, bodyLimit: configuration.maxUploadBytes) { [self] call in
            try await uploadAnswer(call, page: "/admin/releases", failurePage: { [self] failure in try await releasesPage(call, failure: failure) }) {
                let created = try await actions.createRelease(call.request, extraFields: ["csrf"]) { upload in
                    guard Self.csrfMatches(call, formValue: try upload.text("csrf")) else { throw AdminRefusal(status: .forbidden, message: Self.csrfRefusal) }
                }
                return "/admin/releases/\(created.release.id)?notice=\(AdminNotice.releasePublished.rawValue)"
            }
        }
        addAdminPage(&admin, "/releases/:id") { [self] call in try await releasePage(call, failure: nil) }
        addAdminForm(&admin, "/releases/:id/resign", scope: .write) { [self] call, form in
            let id = try call.request.parameters.require("id", as: Int64.self)
            let home = self.home
            let now = self.now
            let reference = form["profile"] ?? ""
            do {
                let created = try await pool.run {
                    let archive = Archive(home: home)
                    let profileBytes = try archive.profileBytes(matching: reference)
                    let devices = try Roster(home: home).devices(includeRemoved: false)
                    return try archive.resign(releaseID: id, profileBytes: profileBytes, signer: try WebActions.codeSigner(home: home), notes: nil,
                                              devices: devices, now: now)
                }
                snapshots.invalidate()
                return Self.seeOther("/admin/releases/\(created.release.id)", notice: .releaseResigned)
            } catch {
                return try await releasePage(call, failure: try WebActions.failure(error))
            }
        }
        addAdminForm(&admin, "/releases/:id/revoke", scope: .write) { [self] call, _ in
            let id = try call.request.parameters.require("id", as: Int64.self)
            let home = self.home
            let now = self.now
            do {
                _ = try await pool.run { try Archive(home: home).revoke(id: id, now: now) }
                snapshots.invalidate()
                return Self.seeOther("/admin/releases/\(id)", notice: .releaseRevoked)
            } catch {
                return try await releasePage(call, failure: try WebActions.failure(error))
            }
        }
    }

    /// Answers an upload form: a redirect (or, for the page's script, JSON naming where to go), or
    /// the form's page with what was wrong (JSON: the problem) when it failed.
    func uploadAnswer(_ call: AdminRequest, page: String,
                      failurePage: @escaping @Sendable ((status: HTTPStatus, message: String, items: [String])) async throws -> Response,
                      _ work: @Sendable () async throws -> String) async throws -> Response {
        let wantsJSON = (call.request.headers["Accept"] ?? "").contains("application/json")
        do {
            let location = try await work()
            if wantsJSON { return try Response.api(["redirect": location]) }
            return Response(status: HTTPStatus(code: 303), headers: ["Location": location])
        } catch let refused as AdminRefusal {
            if wantsJSON { return APIProblem(.insufficientScope, refused.message).response(instance: call.request.path, requestID: call.context.requestID) }
            throw refused
        } catch {
            if wantsJSON {
                guard let problem = APIProblem.from(error), problem.kind.status.code < 500 else { throw error }
                return problem.response(instance: call.request.path, requestID: call.context.requestID)
            }
            return try await failurePage(try WebActions.failure(error))
        }
    }

    /// `GET /admin/releases`.
    func releasesPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let home = self.home
        let (releases, testers, counts) = try await pool.run {
            (try Archive(home: home).releases(), try Roster(home: home).testers(), try Archive(home: home).downloadCounts())
        }
        var chrome = adminChrome("Releases", area: "/admin/releases", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let groups = Set(testers.flatMap(\.groups)).sorted()
        return try renderAdmin("admin-releases", chrome, [
            "releases": .list(releases.map { Self.releaseRow($0, testers: testers, downloads: counts[$0.id] ?? 0) }),
            "hasReleases": .bool(!releases.isEmpty), "knownGroups": .string(groups.joined(separator: ", ")),
            "maxUpload": .string(Self.byteCount(configuration.maxUploadBytes)),
        ], status: failure?.status ?? .ok)
    }

    /// `GET /admin/releases/<id>`.
    func releasePage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let id = try call.request.parameters.require("id", as: Int64.self)
        let home = self.home
        let loaded = try await pool.run { () -> (Release, [ReleaseSlice], [DownloadRecord], [Tester], [StoredProfile])? in
            let archive = Archive(home: home)
            guard let release = try archive.releases().first(where: { $0.id == id }) else { return nil }
            return (release, try archive.slices(ofRelease: id), try archive.downloads(ofRelease: id), try Roster(home: home).testers(),
                    try archive.profiles())
        }
        guard let (release, slices, downloads, testers, profiles) = loaded else { throw WebError.notFound }
        var chrome = adminChrome("Release \(id)", area: "/admin/releases", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let offered = release.revokedAt == nil ? testers.filter { release.isOffered(to: $0) } : []
        var content: [String: MustacheValue] = [
            "release": Self.releaseRow(release, testers: testers, downloads: downloads.count),
            "slices": .list(slices.map { ["path": .string($0.path), "arch": .string($0.architecture), "uuid": .string($0.uuid ?? "-"),
                                          "hasSymbols": .bool($0.hasSymbols)] }),
            "downloads": .list(downloads.map { ["at": .string(Timestamp.string($0.downloadedAt)), "tester": .string($0.testerName ?? "-"),
                                                "device": .string($0.deviceName ?? $0.udid ?? "unknown device")] }),
            "hasDownloads": .bool(!downloads.isEmpty),
            "installPages": .list(offered.map { tester in
                ["tester": .string(tester.name), "url": .string(TesterURLs(base: call.base, token: tester.token).release(id))]
            }),
            "hasInstallPages": .bool(!offered.isEmpty),
            // Re-signing: the imported profiles to choose from, and the release this one came from.
            "resignProfiles": .list(profiles.map { ["uuid": .string($0.uuid), "label": .string("\($0.name) (\($0.type.rawValue))")] }),
            "hasResignProfiles": .bool(!profiles.isEmpty),
            "resignedFrom": release.resignedFrom.map { .string(String($0)) } ?? .null,
        ]
        content["sha256"] = .string(release.packageBlob.hex)
        return try renderAdmin("admin-release", chrome, content, status: failure?.status ?? .ok)
    }

    /// A release as the dashboard's tables show it.
    static func releaseRow(_ release: Release, testers: [Tester], downloads: Int) -> MustacheValue {
        ["id": .string(String(release.id)), "name": .string(release.displayName ?? release.bundleID), "bundleId": .string(release.bundleID),
         "version": .string(ReleaseCard.versionLabel(release)), "created": .string(CalendarDate(release.createdAt).description),
         "offeredTo": .string(ArchiveJSON.offerSummary(release, testers: testers)), "downloads": .int(downloads),
         "revoked": release.revokedAt.map { .string(CalendarDate($0).description) } ?? .null, "active": .bool(release.revokedAt == nil),
         "notes": release.notes.map(MustacheValue.string) ?? .null, "source": .string(release.sourceName),
         "profile": .string(release.profileName ?? "-"),
         "profileExpires": release.profileExpiresAt.map { .string(CalendarDate($0).description) } ?? .null]
    }

    /// "4 GB", "512 MB": a size for people.
    static func byteCount(_ bytes: Int64) -> String {
        bytes >= 1 << 30 ? "\(bytes >> 30) GB" : bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }
}
