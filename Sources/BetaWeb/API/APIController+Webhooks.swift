#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import BetaJSON

/// `POST /api/v1/webhooks`.
struct NewWebhookBody: APIRequestBody {
    var url: String
    var events: [String]?
    var format: String?
    var allowPrivate: Bool?
    static let fields = ["url", "events", "format", "allowPrivate"]
}

extension APIController {
    /// Webhooks: the same operations as `betactl webhook`, with the admin scope.
    var webhookOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/webhooks", scope: .admin, operationID: "listWebhooks", tag: "Webhooks",
                         summary: "Every webhook (never its secret).",
                         outcomes: [.init(status: 200, description: "The webhooks.", schema: .ref("WebhookList"))]) { [self] _ in
                let home = self.home
                let hooks = try await pool.run { try Webhooks(home: home).list() }
                return try Response.api(WebhookJSON.WebhookListJSON(webhooks: hooks.map(WebhookJSON.webhook)))
            },
            APIOperation(method: .post, path: "/webhooks", scope: .admin, operationID: "createWebhook", tag: "Webhooks",
                         summary: "Add a webhook; its signing secret is in this answer only. URLs resolving inside private networks are refused unless `allowPrivate`.",
                         body: .init(mediaType: "application/json", schema: .ref("NewWebhook"), description: "The URL, events (every event when absent), format and whether private addresses are allowed."),
                         outcomes: [.init(status: 201, description: "The webhook and its secret.", schema: .ref("CreatedWebhook"))]) { [self] call in
                let body = try call.request.apiBody(NewWebhookBody.self)
                let events = try Webhooks.parseEvents(body.events ?? [])
                let formatName = body.format ?? "standard"
                guard let format = Webhook.Format(rawValue: formatName) else { throw WebhookError.unknownFormat(formatName) }
                let home = self.home, now = self.now
                let created = try await pool.run {
                    try Webhooks(home: home).add(url: body.url, events: events, format: format, allowPrivate: body.allowPrivate ?? false, now: now)
                }
                return try Response.api(WebhookJSON.created(created), status: .created, location: "\(APIPaths.prefix)/webhooks/\(created.webhook.id)")
            },
            APIOperation(method: .delete, path: "/webhooks/:id", scope: .admin, operationID: "removeWebhook", tag: "Webhooks",
                         summary: "Remove a webhook and its deliveries.",
                         outcomes: [.init(status: 200, description: "The webhook removed.", schema: .ref("Webhook"))]) { [self] call in
                let id = try webhookID(call)
                let home = self.home
                let removed = try await pool.run { try Self.found { try Webhooks(home: home).remove(id: id) } }
                return try Response.api(WebhookJSON.webhook(removed))
            },
            APIOperation(method: .post, path: "/webhooks/:id/test", scope: .admin, operationID: "testWebhook", tag: "Webhooks",
                         summary: "Queue a test event for a webhook (enabling it again if it was disabled); the background sender delivers it.",
                         outcomes: [.init(status: 202, description: "The delivery queued.", schema: .ref("WebhookDelivery"))]) { [self] call in
                let id = try webhookID(call)
                let home = self.home, now = self.now
                let delivery = try await pool.run {
                    try Self.found {
                        let webhooks = Webhooks(home: home)
                        let queued = try webhooks.queueTest(id: id, now: now)
                        return try webhooks.deliveries(webhookID: id).first { $0.id == queued }
                    }
                }
                webhooks.wake()
                guard let delivery else { throw APIProblem(.notFound, "no webhook has the id \(id); GET \(APIPaths.prefix)/webhooks lists them") }
                return try Response.api(WebhookJSON.delivery(delivery), status: HTTPStatus(code: 202))
            },
            APIOperation(method: .get, path: "/webhooks/:id/deliveries", scope: .admin, operationID: "listWebhookDeliveries", tag: "Webhooks",
                         summary: "A webhook's last 100 deliveries, newest first, with their attempts and last answer.",
                         outcomes: [.init(status: 200, description: "The deliveries.", schema: .ref("WebhookDeliveryList"))]) { [self] call in
                let id = try webhookID(call)
                let home = self.home
                let deliveries = try await pool.run { try Self.found { try Webhooks(home: home).deliveries(webhookID: id) } }
                return try Response.api(WebhookJSON.DeliveryListJSON(deliveries: deliveries.map(WebhookJSON.delivery)))
            },
        ]
    }

    func webhookID(_ call: APICall) throws -> Int64 {
        guard let id = try? call.request.parameters.require("id", as: Int64.self), id > 0 else {
            let text = call.request.parameters["id"] ?? ""
            throw APIProblem(.notFound, "no webhook has the id \(text); GET \(APIPaths.prefix)/webhooks lists them")
        }
        return id
    }

    /// Runs `body`, answering an unknown webhook with 404.
    static func found<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let WebhookError.unknownWebhook(id) {
            throw APIProblem(.notFound, "no webhook has the id \(id); GET \(APIPaths.prefix)/webhooks lists them")
        }
    }

    /// The webhook schemas of the OpenAPI document.
    static var webhookSchemas: [String: JSONSchema] {
        let events = WebhookEvent.subscribable.map(\.rawValue)
        return [
            "Webhook": .object([
                .required("id", .integer(minimum: 1), "The webhook's number."),
                .required("url", .text, "Where deliveries are posted."),
                .required("events", .array(.string(values: events)), "The events it is told about; empty for every event."),
                .required("format", .string(values: Webhook.Format.allCases.map(\.rawValue))),
                .required("allowPrivate", .boolean(description: "Whether its URL may resolve inside private networks.")),
                .required("state", .string(values: ["enabled", "failing", "disabled"])),
                .required("created", .string(format: "date-time")),
                .optional("failingSince", .string(format: "date-time")),
                .optional("disabled", .string(format: "date-time")),
                .optional("disabledReason", .text),
            ], description: "An endpoint told when something happens."),
            "WebhookList": .object([.required("webhooks", .array(.ref("Webhook")))], description: "Every webhook, oldest first."),
            "NewWebhook": .object([
                .required("url", .text, "An http(s) URL."),
                .optional("events", .array(.string(values: events)), "Events to send; every event when absent or empty."),
                .optional("format", .string(values: Webhook.Format.allCases.map(\.rawValue)), "standard (signed, the default), slack or discord."),
                .optional("allowPrivate", .boolean(description: "Allow a URL resolving to loopback, link-local or private addresses.")),
            ], description: "A webhook to add.", additional: .never),
            "CreatedWebhook": .object([
                .required("webhook", .ref("Webhook")),
                .required("secret", .string(description: "`whsec_` and the base64 signing key; shown only here.")),
            ], description: "A webhook just added, with its secret."),
            "WebhookDelivery": .object([
                .required("id", .integer(minimum: 1)),
                .required("webhookId", .integer(minimum: 1)),
                .required("event", .text, "The event type."),
                .required("messageId", .text, "The `webhook-id` of every attempt."),
                .required("state", .string(values: ["pending", "delivered", "failed"])),
                .required("attempts", .integer(minimum: 0)),
                .optional("lastStatus", .integer(minimum: 0)),
                .optional("lastError", .text),
                .required("created", .string(format: "date-time")),
                .optional("lastAttempt", .string(format: "date-time")),
                .optional("nextAttempt", .string(format: "date-time")),
            ], description: "One event's delivery to one webhook."),
            "WebhookDeliveryList": .object([.required("deliveries", .array(.ref("WebhookDelivery")))], description: "Deliveries, newest first."),
        ]
    }
}
