#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

extension TesterController {
    /// The release named in the path, if it is offered to the tester; a revoked one is `revoked` (410).
    func offeredRelease(_ request: Request, _ context: TesterRequest) throws -> Release {
        let id = try request.parameters.require("id", as: Int64.self)
        guard let release = context.snapshot.release(id: id),
              release.isOffered(to: context.tester) else { throw WebError.notFound }
        if release.revokedAt != nil {
            throw WebError.revoked(releaseName: "\(release.displayName ?? release.bundleID) \(ReleaseCard.versionLabel(release))",
                                   testerPage: context.urls.page)
        }
        return release
    }

    /// `GET /t/<token>`: the tester's page.
    func testerPage(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let before = try Self.releaseCursor(request)
        let agent = request.headers["User-Agent"]
        let key = PageCache.Key(kind: "tester", testerID: context.tester.id, releaseID: before ?? 0, base: context.urls.base.url,
                                client: ClientKind(userAgent: agent), inAppBrowser: ClientKind.isInAppBrowser(agent))
        if let cached = pages.get(key, generation: context.generation) { return .html(cached) }
        let settings = context.snapshot.settings
        var page = TesterPage(snapshot: context.snapshot, tester: context.tester, urls: context.urls,
                              chrome: site.chrome(request, title: "\(settings.brandName): \(context.tester.name)", settings: settings,
                                             base: context.urls.base),
                              enrollURL: enrollURL(context.urls), now: now, before: before)
        page.crashes = try await crashSection(context)
        let bytes = try renderer.render("tester", page)
        pages.put(key, generation: context.generation, bytes: bytes)
        return .html(bytes)
    }

    /// The `before` query value of a tester's page: nil for the newest releases, else a release id.
    static func releaseCursor(_ request: Request) throws -> Int64? {
        guard let text = request.queryValue("before") else { return nil }
        guard let id = Int64(text), id > 0 else {
            throw HTTPError(.badRequest, "before=\(text.prefix(40)) is not a release number; follow the page's Older builds link, or leave before= out for the newest builds")
        }
        return id
    }

    /// `GET /t/<token>/releases/<id>`: one release.
    func releasePage(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let release = try offeredRelease(request, context)
        let settings = context.snapshot.settings
        let chrome = site.chrome(request, title: "\(release.displayName ?? release.bundleID) \(ReleaseCard.versionLabel(release))",
                            settings: settings, base: context.urls.base)
        let card = ReleaseCard(release: release, snapshot: context.snapshot, tester: context.tester, urls: context.urls,
                               client: chrome.client, placeholderIcon: chrome.assets.placeholderIcon, now: now)
        let page = ReleasePage(chrome: chrome, testerName: context.tester.name, testerPageURL: context.urls.page, release: card,
                               qrSVG: context.urls.qrSVG, enrollURL: enrollURL(context.urls))
        return .html(try renderer.render("release", page))
    }

    /// `GET /t/<token>/releases/<id>/manifest.plist`: the OTA manifest, as `text/xml`.
    func manifest(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let release = try offeredRelease(request, context)
        let manifest = OTAManifest(packageURL: context.urls.package(release.id),
                                   iconURL: release.iconBlob == nil ? nil : context.urls.icon(release.id),
                                   bundleIdentifier: release.bundleID,
                                   bundleVersion: release.version ?? release.build ?? "1.0",
                                   title: release.displayName ?? release.bundleID)
        return .bytes(try manifest.xmlBytes(), contentType: "text/xml; charset=utf-8")
    }
}
