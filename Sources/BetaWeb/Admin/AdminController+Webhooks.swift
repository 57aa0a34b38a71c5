#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// `/admin/webhooks`: endpoints and recent deliveries; adding, testing and removing need the
    /// admin scope (a webhook URL can itself be a secret, so others see only its host).
    func addWebhookPages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/webhooks") { [self] call in try await webhooksPage(call, created: nil, failure: nil) }
        addAdminForm(&admin, "/webhooks", scope: .admin) { [self] call, form in
            let home = self.home, now = self.now
            do {
                let events = try Webhooks.parseEvents(form.values(of: "event"))
                let formatName = form["format"] ?? "standard"
                guard let format = Webhook.Format(rawValue: formatName) else { throw WebhookError.unknownFormat(formatName) }
                let url = form["url"] ?? ""
                let allowPrivate = form["allowPrivate"] == "true"
                let created = try await pool.run { try Webhooks(home: home).add(url: url, events: events, format: format, allowPrivate: allowPrivate, now: now) }
                // The secret is shown in this answer only, never put in a URL.
                return try await webhooksPage(call, created: created, failure: nil, status: HTTPStatus(code: 201))
            } catch {
                return try await webhooksPage(call, created: nil, failure: try WebActions.failure(error))
            }
        }
        addAdminForm(&admin, "/webhooks/:id/test", scope: .admin) { [self] call, _ in
            let home = self.home, now = self.now
            do {
                let id = try call.request.parameters.require("id", as: Int64.self)
                _ = try await pool.run { try Webhooks(home: home).queueTest(id: id, now: now) }
                webhooks.wake()
                return Self.seeOther("/admin/webhooks", notice: .webhookTestQueued)
            } catch {
                return try await webhooksPage(call, created: nil, failure: try WebActions.failure(error))
            }
        }
        addAdminForm(&admin, "/webhooks/:id/remove", scope: .admin) { [self] call, _ in
            let home = self.home
            do {
                let id = try call.request.parameters.require("id", as: Int64.self)
                _ = try await pool.run { try Webhooks(home: home).remove(id: id) }
                return Self.seeOther("/admin/webhooks", notice: .webhookRemoved)
            } catch {
                return try await webhooksPage(call, created: nil, failure: try WebActions.failure(error))
            }
        }
    }

    /// `GET /admin/webhooks`.
    func webhooksPage(_ call: AdminRequest, created: NewWebhook?, failure: (status: HTTPStatus, message: String, items: [String])?,
                      status: HTTPStatus = .ok) async throws -> Response {
        let home = self.home
        let (hooks, deliveries) = try await pool.run { () throws -> ([Webhook], [WebhookDelivery]) in
            let webhooks = Webhooks(home: home)
            return (try webhooks.list(), try webhooks.deliveries(limit: 50))
        }
        var chrome = adminChrome("Webhooks", area: "/admin/webhooks", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let admin = chrome.canAdmin
        let rows: [MustacheValue] = hooks.map { hook in
            ["id": .string(String(hook.id)), "url": .string(admin ? hook.url : Self.hostOnly(hook.url)), "format": .string(hook.format.rawValue),
             "events": .string(hook.events.isEmpty ? "every event" : hook.events.map(\.rawValue).joined(separator: ", ")),
             "state": .string(hook.state), "stateClass": .string(hook.state == "enabled" ? "good" : hook.state == "failing" ? "warn" : "bad"),
             "reason": hook.disabledReason.map(MustacheValue.string) ?? .null]
        }
        let deliveryRows: [MustacheValue] = deliveries.map { delivery in
            ["webhook": .string(String(delivery.webhookID)), "event": .string(delivery.event), "state": .string(delivery.state),
             "stateClass": .string(delivery.state == "delivered" ? "good" : delivery.state == "pending" ? "warn" : "bad"),
             "attempts": .string(String(delivery.attempts)),
             "last": .string(delivery.lastStatus.map { "HTTP \($0)" } ?? delivery.lastError ?? ""),
             "when": .string(Timestamp.string(delivery.lastAttemptAt ?? delivery.createdAt))]
        }
        return try renderAdmin("admin-webhooks", chrome, [
            "webhooks": .list(rows), "hasWebhooks": .bool(!rows.isEmpty),
            "deliveries": .list(deliveryRows), "hasDeliveries": .bool(!deliveryRows.isEmpty),
            "events": .list(WebhookEvent.subscribable.map { .string($0.rawValue) }),
            "formats": .list(Webhook.Format.allCases.map { .string($0.rawValue) }),
            "created": created.map { ["id": .string(String($0.webhook.id)), "secret": .string($0.secret)] } ?? .null,
        ], status: failure?.status ?? status)
    }

    /// `https://hooks.example.com/…`: a URL without its path, which may hold a secret.
    static func hostOnly(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return "…" }
        let rest = url[scheme.upperBound...]
        return String(url[..<scheme.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" }) + "/…"
    }
}
