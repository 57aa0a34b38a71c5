#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// What every part of the site shares for its pages: the chrome (brand, asset links, the kind of
/// client), the static assets under `/assets`, and the 404/410 and 500 pages the error middleware
/// and the router's not-found handler answer with.
struct SitePages: Sendable {
    let home: Home
    let snapshots: SnapshotStore
    let renderer: PageRenderer
    let assets: WebAssets

    /// `GET /assets/brand.css` and `GET /assets/<path>`.
    func addRoutes(to router: inout Router) {
        let loop = RouteOptions(execution: .eventLoop)
        router.get("/assets/brand.css", options: loop) { request, _ in try await brandStylesheet(request) }
        router.get("/assets/*path", options: loop) { request, _ in asset(request) }
    }

    /// The chrome of a page for `request`: its title, the brand, asset links and the client's kind.
    func chrome(_ request: Request, title: String, settings: HomeSettings, base: PublicBase) -> PageChrome {
        let agent = request.headers["User-Agent"]
        return PageChrome(title: title, brandName: settings.brandName, assets: assetLinks(base: base, settings: settings),
                          client: ClientKind(userAgent: agent), inAppBrowser: ClientKind.isInAppBrowser(agent),
                          insecure: !base.isSecure)
    }

    /// The 404 and 410 pages.
    func errorPage(_ request: Request, _ error: WebError) async -> Response {
        let snapshot = try? await snapshots.current().snapshot
        let settings = snapshot?.settings ?? home.settings
        let base = PublicBase(request: request, publicURL: settings.publicURL)
        let page: MessagePage
        let status: HTTPStatus
        switch error {
        case .notFound:
            status = .notFound
            page = MessagePage(chrome: chrome(request, title: "Not found", settings: settings, base: base),
                               heading: "Nothing here",
                               message: "This link does not lead anywhere. Check that you opened the whole link you were sent; if it still fails, ask for a new one.",
                               link: nil)
        case let .revoked(name, testerPage):
            status = .gone
            page = MessagePage(chrome: chrome(request, title: "Build withdrawn", settings: settings, base: base),
                               heading: "This build was withdrawn",
                               message: "\(name) is no longer offered for testing. Your page lists the builds you can install now.",
                               link: (testerPage, "Back to your builds"))
        }
        var response = Response.html((try? renderer.render("message", page)) ?? Array("\(status.code) \(status.reason)\n".utf8), status: status)
        response.headers.set("Cache-Control", "private, no-store")
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }

    /// The page for an unexpected failure: it names the request id the server log holds the details under.
    func internalErrorPage(_ request: Request, _ context: Context) async -> Response {
        let settings = home.settings
        let base = PublicBase(request: request, publicURL: settings.publicURL)
        let page = MessagePage(chrome: chrome(request, title: "Something went wrong", settings: settings, base: base),
                               heading: "Something went wrong",
                               message: "The server could not answer this request (request \(context.requestID)). Try again in a moment; if it keeps failing, tell the person who sent you the link and quote the request number.",
                               link: nil)
        var response = Response.html((try? renderer.render("message", page)) ?? Array("500 Internal Server Error\n".utf8),
                                     status: .internalServerError)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Links to the static assets, with content versions so browsers refetch after a change.
    func assetLinks(base: PublicBase, settings: HomeSettings) -> AssetLinks {
        func link(_ path: String) -> String {
            "\(base.url)/assets/\(path)" + (assets.files[path].map { "?v=\($0.version)" } ?? "")
        }
        let brand = settings.brandColor.dropFirst()
        return AssetLinks(css: link("app.css"), brandCSS: "\(base.url)/assets/brand.css?c=\(brand)", js: link("app.js"),
                          favicon: link("favicon.svg"), placeholderIcon: link("placeholder-icon.svg"))
    }

    /// `GET /assets/<path>`: an embedded (or overriding) static file.
    func asset(_ request: Request) -> Response {
        guard let path = request.parameters["path"], let asset = assets.files[path] else {
            return Response(status: .notFound, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array("not found\n".utf8)))
        }
        if let match = request.headers["If-None-Match"], match.split(separator: ",").contains(where: { $0.trimmingSpaces == asset.etag || $0.trimmingSpaces == "*" }) {
            return Response(status: .notModified, headers: ["ETag": asset.etag, "Cache-Control": "public, max-age=86400"])
        }
        return Response(status: .ok, headers: ["Content-Type": asset.contentType, "ETag": asset.etag, "Cache-Control": "public, max-age=86400"],
                        body: .bytes(asset.bytes))
    }

    /// `GET /assets/brand.css`: the brand colour as a CSS variable (a stylesheet, since the pages'
    /// Content-Security-Policy allows no inline style).
    func brandStylesheet(_ request: Request) async throws -> Response {
        let settings = try await snapshots.current().snapshot.settings
        let css = ":root { --brand: \(settings.brandColor); }\n"
        return Response(status: .ok, headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300"],
                        body: .bytes(Array(css.utf8)))
    }
}

extension Response {
    /// A `text/html; charset=utf-8` response from rendered bytes.
    static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
