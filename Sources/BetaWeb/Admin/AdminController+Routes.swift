#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Mustache

/// A dashboard request whose session is known, with the data every page needs.
struct AdminRequest: Sendable {
    var request: Request
    var context: Context
    var session: AdminSession
    var settings: HomeSettings
    var base: PublicBase
}

extension AdminController {
    /// The dashboard under `/admin`: server-rendered pages with plain HTML forms, enhanced by
    /// `admin.js` (copy buttons, upload progress) but working without it.
    func addRoutes(to router: inout Router) {
        // Pages hold tester links and the CSRF token: never cached, never compressed (BREACH).
        let headers = SecurityHeadersMiddleware(fields: [("Cache-Control", "private, no-store")])
        let refusals = ClosureMiddleware { [self] request, context, next in
            do {
                return try await next(request, context)
            } catch let refused as AdminRefusal {
                return try await refusal(nil, status: refused.status, message: refused.message)
            }
        }
        router.group("/admin", middleware: [headers, NoCompressionMiddleware(), refusals]) { admin in
            let loop = RouteOptions(execution: .eventLoop)
            admin.get("/login", options: loop) { [self] request, _ in try await loginPage(request, failure: nil) }
            admin.post("/login", options: RouteOptions(bodyLimit: 64 * 1024, execution: .eventLoop)) { [self] request, _ in
                try await login(request)
            }
            admin.get("/login/demo/:key", options: loop) { [self] request, _ in try await demoLogin(request) }
            addAdminPage(&admin, "") { [self] call in try await overviewPage(call) }
            addAdminForm(&admin, "/logout", scope: .read) { [self] call, _ in try await logout(call) }
            addTesterPages(&admin)
            addDevicePages(&admin)
            addReleasePages(&admin)
            addProfilePages(&admin)
            addSymbolPages(&admin)
            addCrashPages(&admin)
            addApplePages(&admin)
            addWebhookPages(&admin)
            addProvisioningPages(&admin)
        }
    }

    /// Registers a page that needs a session (any scope); without one the browser is sent to the login.
    func addAdminPage(_ group: inout RouteGroup, _ path: String,
                      _ handler: @escaping @Sendable (AdminRequest) async throws -> Response) {
        group.get(path, options: RouteOptions(execution: .eventLoop)) { [self] request, context in
            guard let call = try await adminRequest(request, context) else {
                let next = request.path + (request.query.map { "?" + $0 } ?? "")
                return Response(status: HTTPStatus(code: 303), headers: ["Location": "/admin/login?next=\(PageKey.percentEncoded(next))"])
            }
            return try await handler(call)
        }
    }

    /// Registers a form post (`application/x-www-form-urlencoded`) that needs a session with
    /// `scope` and the session's CSRF token in the field `csrf`.
    func addAdminForm(_ group: inout RouteGroup, _ path: String, scope: TokenScope,
                      _ handler: @escaping @Sendable (AdminRequest, URLEncodedForm) async throws -> Response) {
        group.post(path, options: RouteOptions(bodyLimit: 64 * 1024, execution: .eventLoop)) { [self] request, context in
            let call = try await authorisedPost(request, context, scope: scope)
            let form = try URLEncodedForm(body: request.body)
            guard Self.sameSite(request), let sent = form["csrf"], constantTimeEquals(sent, call.session.csrfToken) else {
                return try await refusal(call, status: .forbidden, message: Self.csrfRefusal)
            }
            return try await handler(call, form)
        }
    }

    /// Registers a multipart upload that needs a session with `scope`; the handler checks the CSRF
    /// token (a form part or the `X-CSRF-Token` header) once the form is parsed, before acting.
    func addAdminUpload(_ group: inout RouteGroup, _ path: String, scope: TokenScope, bodyLimit: Int64,
                        _ handler: @escaping @Sendable (AdminRequest) async throws -> Response) {
        let options = RouteOptions(bodyLimit: bodyLimit, execution: .eventLoop, headCheck: headChecks.dashboard(scope: scope))
        group.post(path, options: options) { [self] request, context in
            let call = try await authorisedPost(request, context, scope: scope)
            guard Self.sameSite(request) else { return try await refusal(call, status: .forbidden, message: Self.csrfRefusal) }
            return try await handler(call)
        }
    }

    static let csrfRefusal = "This form was not sent from this dashboard page (its security token is missing or out of date), so nothing was changed. Reload the page and try again."

    /// Browsers say where a request comes from (`Sec-Fetch-Site`); a cross-site post is refused
    /// even before the CSRF token is looked at. Clients that do not send the header pass.
    static func sameSite(_ request: Request) -> Bool {
        guard let site = request.headers["Sec-Fetch-Site"] else { return true }
        return site == "same-origin" || site == "none"
    }

    /// Whether the CSRF token a multipart form or its `X-CSRF-Token` header carries is the session's.
    static func csrfMatches(_ call: AdminRequest, formValue: String?) -> Bool {
        let sent = call.request.headers["X-CSRF-Token"] ?? formValue
        return sent.map { constantTimeEquals($0, call.session.csrfToken) } ?? false
    }

    /// The session of a post, which must allow `scope`; otherwise the refusal page is thrown.
    func authorisedPost(_ request: Request, _ context: Context, scope: TokenScope) async throws -> AdminRequest {
        guard let call = try await adminRequest(request, context) else {
            throw AdminRefusal(status: .forbidden, message: "You are not logged in (or your session ended), so nothing was changed. Log in and try again.")
        }
        guard call.session.token.scope.allows(scope) else {
            throw AdminRefusal(status: .forbidden,
                               message: "The token \(call.session.token.name) you logged in with has the \(call.session.token.scope) scope; this needs \(scope). Log in with a \(scope) token.")
        }
        return call
    }

    /// The request's live session, or nil.
    func adminRequest(_ request: Request, _ context: Context) async throws -> AdminRequest? {
        guard let id = AdminCookies.value(AdminCookies.session, in: request) else { return nil }
        let home = self.home
        let now = self.now
        guard let session = try await pool.run({ try AdminSessions(home: home).session(id: id, now: now) }) else { return nil }
        let settings = try await snapshots.current().snapshot.settings
        return AdminRequest(request: request, context: context, session: session, settings: settings,
                            base: PublicBase(request: request, publicURL: settings.publicURL))
    }

    /// The chrome of a dashboard page.
    func adminChrome(_ title: String, area: String, settings: HomeSettings, session: AdminSession?) -> AdminChrome {
        func link(_ path: String) -> String {
            "/assets/\(path)" + (assets.files[path].map { "?v=\($0.version)" } ?? "")
        }
        let links = AdminAssetLinks(css: link("app.css"), adminCSS: link("admin.css"),
                                    brandCSS: "/assets/brand.css?c=\(settings.brandColor.dropFirst())", adminJS: link("admin.js"),
                                    favicon: link("favicon.svg"))
        return AdminChrome(title: "\(title) · \(settings.brandName) dashboard", brandName: settings.brandName, assets: links, area: area,
                           session: session)
    }

    /// Renders dashboard template `name` with `chrome` as `page` and `content` beside it.
    func renderAdmin(_ name: String, _ chrome: AdminChrome, _ content: [String: MustacheValue], status: HTTPStatus = .ok) throws -> Response {
        var model = content
        model["page"] = chrome.mustacheValue
        return .html(try renderer.render(name, MustacheValue.object(model)), status: status)
    }

    /// A page that only says why something was refused.
    func refusal(_ call: AdminRequest?, status: HTTPStatus, message: String) async throws -> Response {
        let settings = try await snapshots.current().snapshot.settings
        var chrome = adminChrome("Refused", area: "", settings: settings, session: call?.session)
        chrome.error = message
        return try renderAdmin("admin-message", chrome, ["heading": "Nothing was changed"], status: status)
    }

    /// After a successful post: back to `path` with a fixed notice (never user data in the URL).
    static func seeOther(_ path: String, notice: AdminNotice) -> Response {
        Response(status: HTTPStatus(code: 303), headers: ["Location": "\(path)?notice=\(notice.rawValue)"])
    }

    /// The notice a page shows after a redirect.
    static func notice(_ request: Request) -> String? {
        request.queryValue("notice").flatMap(AdminNotice.init(rawValue:))?.text
    }
}

/// A refused dashboard post, answered with the refusal page.
struct AdminRefusal: Error, Sendable {
    var status: HTTPStatus
    var message: String
}

/// The fixed messages shown after a redirect, named in the URL by key.
enum AdminNotice: String, Sendable {
    case loggedOut = "logged-out"
    case testerAdded = "tester-added"
    case testerRemoved = "tester-removed"
    case groupsSaved = "groups-saved"
    case linkReissued = "link-reissued"
    case deviceAdded = "device-added"
    case deviceRemoved = "device-removed"
    case requestApproved = "request-approved"
    case requestRejected = "request-rejected"
    case releasePublished = "release-published"
    case releaseRevoked = "release-revoked"
    case releaseResigned = "release-resigned"
    case profileImported = "profile-imported"
    case symbolsAdded = "symbols-added"
    case appleProvisioned = "apple-provisioned"
    case webhookTestQueued = "webhook-test-queued"
    case webhookRemoved = "webhook-removed"
    case autoOn = "auto-on"
    case autoOff = "auto-off"
    case ruleSaved = "rule-saved"
    case jobRetried = "job-retried"
    case jobCancelled = "job-cancelled"

    var text: String {
        switch self {
        case .loggedOut: "You are logged out."
        case .testerAdded: "The tester was added. Send them the link below."
        case .testerRemoved: "The tester was removed; their devices keep their slots until the membership renews."
        case .groupsSaved: "The groups were saved."
        case .linkReissued: "The tester has a new link; the old one no longer works. Send them the new one."
        case .deviceAdded: "The device was registered. Add it to the ad hoc profile at Apple and import the new profile."
        case .deviceRemoved: "The device was removed; its slot stays used until the membership renews."
        case .requestApproved: "The request was approved: the device is registered and takes a slot. Register it with Apple (the pending upload file) and regenerate the profile."
        case .requestRejected: "The request was rejected. It held no slot, so none was freed."
        case .releasePublished: "The release was published; testers see it on their pages now."
        case .releaseRevoked: "The release was revoked; testers no longer see it."
        case .releaseResigned: "The build was re-signed with the new profile and published as this release; the original stays as it was."
        case .profileImported: "The profile was imported."
        case .symbolsAdded: "The symbols were archived."
        case .webhookTestQueued: "A test event was queued; the deliveries below show its answer in a moment."
        case .webhookRemoved: "The webhook and its deliveries were removed."
        case .autoOn: "Automatic provisioning is on: approved devices are registered, profiled and get a re-signed build by themselves."
        case .autoOff: "Automatic provisioning is off: approvals queue nothing more; queued jobs still run unless cancelled."
        case .ruleSaved: "The approval rule was saved; it applies to replies arriving from now on."
        case .jobRetried: "The job is queued again from the step it reached."
        case .jobCancelled: "The job was cancelled; what it already did at Apple stays done."
        case .appleProvisioned: "The approved devices are registered at Apple and the ad hoc profiles were regenerated and imported."
        }
    }
}
