import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// `GET /admin/login`: the token form. It sets a one-time cookie that the form repeats, so a
    /// login cannot be forged from another site (double-submit CSRF check).
    func loginPage(_ request: Request, failure: (status: HTTPStatus, message: String)?) async throws -> Response {
        let settings = try await snapshots.current().snapshot.settings
        let base = PublicBase(request: request, publicURL: settings.publicURL)
        var chrome = adminChrome("Log in", area: "", settings: settings, session: nil)
        chrome.error = failure?.message
        chrome.notice = Self.notice(request)
        let nonce = InviteToken.nonce()
        var response = try renderAdmin("admin-login", chrome, ["loginCSRF": .string(nonce), "next": .string(Self.safeNext(request.queryValue("next")))],
                                       status: failure?.status ?? .ok)
        response.headers.add("Set-Cookie", AdminCookies.header(AdminCookies.login, nonce, path: "/admin/login", maxAge: 3600, secure: base.isSecure))
        return response
    }

    /// `POST /admin/login`: exchanges a token for a session cookie. Failures count against the
    /// client's address; after five in 15 minutes it must wait (429).
    func login(_ request: Request) async throws -> Response {
        let address = request.clientAddress
        if let refusal = try await throttled(request) { return refusal }
        let form = try URLEncodedForm(body: request.body)
        guard Self.sameSite(request), let sent = form["csrf"], let cookie = AdminCookies.value(AdminCookies.login, in: request),
              constantTimeEquals(sent, cookie) else {
            return try await loginPage(request, failure: (.forbidden, "The login form expired or did not come from this site. Try again on this page."))
        }
        let secret = (form["token"] ?? "").trimmingWhitespace
        let home = self.home
        let now = self.now
        guard let opened = try await pool.run({ try AdminSessions(home: home).open(secret: secret, now: now) }) else {
            loginThrottle.recordFailure(from: address)
            return try await loginPage(request, failure: (.unauthorized, "That token is not valid: it was mistyped, revoked or never existed. Create one with `betactl token create NAME --scope write`."))
        }
        loginThrottle.recordSuccess(from: address)
        return try await loggedIn(request, opened, next: Self.safeNext(form["next"]))
    }

    /// `GET /admin/login/demo/<key>`: the one-use link `betactl demo` prints. In a demo sandbox, the
    /// pending key opens an admin session once; anything else counts as a failed login.
    func demoLogin(_ request: Request) async throws -> Response {
        let address = request.clientAddress
        if let refusal = try await throttled(request) { return refusal }
        let key = try request.parameters.require("key")
        let home = self.home
        let now = self.now
        guard let opened = try await pool.run({ try DemoLogin(home: home).redeem(key: key, now: now) }) else {
            loginThrottle.recordFailure(from: address)
            return try await loginPage(request, failure: (.unauthorized, "That demo login link has been used already (it works once), or this server is not a demo sandbox. Run `betactl demo --dir DIR` again for a new link, or log in with a token."))
        }
        loginThrottle.recordSuccess(from: address)
        return try await loggedIn(request, opened, next: "/admin")
    }

    /// The 429 page when the client's address has failed to log in too often lately.
    func throttled(_ request: Request) async throws -> Response? {
        guard let wait = loginThrottle.wait(for: request.clientAddress) else { return nil }
        let seconds = max(1, Int(wait.components.seconds) + 1)
        var response = try await loginPage(request, failure: (HTTPStatus(code: 429), "Too many failed logins from your address. Wait \(Self.minutes(seconds)) and try again."))
        response.headers.set("Retry-After", String(seconds))
        return response
    }

    /// Sends the browser to `next` with the new session's cookie, and deletes the login form's one.
    func loggedIn(_ request: Request, _ opened: OpenedAdminSession, next: String) async throws -> Response {
        let settings = try await snapshots.current().snapshot.settings
        let secure = PublicBase(request: request, publicURL: settings.publicURL).isSecure
        var response = Response(status: HTTPStatus(code: 303), headers: ["Location": next])
        response.headers.add("Set-Cookie", AdminCookies.header(AdminCookies.session, opened.id, path: "/admin",
                                                               maxAge: Int(AdminSessions.lifetime), secure: secure))
        response.headers.add("Set-Cookie", AdminCookies.header(AdminCookies.login, "", path: "/admin/login", maxAge: 0, secure: secure))
        return response
    }

    /// `POST /admin/logout`: ends the session server-side and deletes the cookie.
    func logout(_ call: AdminRequest) async throws -> Response {
        if let id = AdminCookies.value(AdminCookies.session, in: call.request) {
            let home = self.home
            let now = self.now
            try await pool.run { try AdminSessions(home: home).end(id: id, now: now) }
        }
        var response = Self.seeOther("/admin/login", notice: .loggedOut)
        response.headers.add("Set-Cookie", AdminCookies.header(AdminCookies.session, "", path: "/admin", maxAge: 0, secure: call.base.isSecure))
        return response
    }

    /// Where to go after logging in: a dashboard path only, never another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/admin"), !next.hasPrefix("//"), !next.contains("\\"),
              next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return "/admin" }
        return next
    }

    static func minutes(_ seconds: Int) -> String {
        seconds < 90 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
    }
}

extension InviteToken {
    /// A random one-time value (the login form's CSRF nonce).
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0 ..< 3 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return String(decoding: Base64.encode(bytes, .urlSafeUnpadded), as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing whitespace (a pasted token often brings a newline).
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
