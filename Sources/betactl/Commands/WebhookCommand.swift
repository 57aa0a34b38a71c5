import BetaKit
import BetaJSON

/// `betactl webhook add|list|remove|test|deliveries`: endpoints told when something happens.
enum WebhookCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "webhook", summary: "Add, list, remove or test webhooks, and show their deliveries.",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "add, list, remove, test or deliveries."),
            ArgumentSpec(name: "TARGET", help: "add: the URL; remove, test: the webhook's id; deliveries: an id (optional).", isOptional: true),
        ],
        options: [
            .repeated("--event", "EVENT", "add: an event to send (repeatable, or comma-separated); every event when none is given."),
            .value("--format", "FORMAT", "add: standard (signed, the default), slack or discord."),
            .flag("--allow-private", "add: let the URL resolve to a loopback, link-local or private address (an on-premise chat server)."),
            .json,
        ],
        discussion: """
        Events: \(WebhookEvent.subscribable.map(\.rawValue).joined(separator: ", ")). `webhook add` prints the \
        endpoint's signing secret (whsec_…) once. Deliveries are signed like Standard Webhooks (webhook-id, \
        webhook-timestamp, webhook-signature) and sent in the background by `betactl serve`: a 10 s timeout, \
        retries with backoff over about a day, Retry-After honoured; an endpoint failing for a day is disabled \
        (`webhook test` enables it again). `webhook test ID` sends a test event now and prints the answer.
        """,
        group: .server)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let action = args.argument("ACTION") ?? ""
        let target = args.argument("TARGET")
        let json = args.flag("--json")
        switch action {
        case "add":
            guard let url = target else { throw invocation.usageError("webhook add needs a URL, e.g. betactl webhook add https://hooks.example.com/beta") }
            let events = try Webhooks.parseEvents(args.values("--event"))
            let formatName = args.value("--format") ?? "standard"
            guard let format = Webhook.Format(rawValue: formatName) else { throw WebhookError.unknownFormat(formatName) }
            let created = try Webhooks(home: try invocation.openHome()).add(url: url, events: events, format: format,
                                                                             allowPrivate: args.flag("--allow-private"), now: invocation.now)
            if json {
                try invocation.printJSON(WebhookJSON.created(created))
                return
            }
            invocation.print(created.secret)
            invocation.printError("Added webhook \(created.webhook.id) for \(created.webhook.url) (\(describe(created.webhook.events))). "
                + (format == .standard ? "Its signing secret is printed above and is not shown again: copy it now."
                                       : "\(format.rawValue.capitalized) cannot verify signatures; keep the URL itself secret."))
        case "list":
            if target != nil { throw invocation.usageError("webhook list takes no argument") }
            let hooks = try Webhooks(home: try invocation.openHome()).list()
            if json {
                try invocation.printJSON(WebhookJSON.WebhookListJSON(webhooks: hooks.map(WebhookJSON.webhook)))
                return
            }
            guard !hooks.isEmpty else {
                invocation.print("No webhooks yet. Add one with `betactl webhook add URL [--event EVENT]...`.")
                return
            }
            var table = Table(headers: ["ID", "URL", "FORMAT", "EVENTS", "STATE"])
            for hook in hooks {
                table.rows.append([String(hook.id), hook.url, hook.format.rawValue, describe(hook.events),
                                   hook.disabledAt.map { "disabled \(CalendarDate($0))" } ?? hook.state])
            }
            invocation.console.writeOut(table.render(style: invocation.style))
        case "remove":
            let id = try webhookID(target, action: action, invocation)
            let removed = try Webhooks(home: try invocation.openHome()).remove(id: id)
            if json {
                try invocation.printJSON(WebhookJSON.webhook(removed))
                return
            }
            invocation.print("Removed webhook \(removed.id) (\(removed.url)) and its deliveries.")
        case "test":
            let id = try webhookID(target, action: action, invocation)
            let home = try invocation.openHome()
            let deliveryID = try Webhooks(home: home).queueTest(id: id, now: invocation.now)
            try WebhookDeliverer(home: home).deliverDue(limit: 1, only: deliveryID)
            guard let delivery = try Webhooks(home: home).deliveries(webhookID: id, limit: 100).first(where: { $0.id == deliveryID }) else {
                throw WebhookError.unknownWebhook(String(id))
            }
            if json { try invocation.printJSON(WebhookJSON.delivery(delivery)) }
            guard delivery.state == "delivered" else {
                throw CommandFailure(description: "the test event to webhook \(id) was not delivered: \(delivery.lastError ?? "no answer"); "
                    + "fix the endpoint, then run `betactl webhook test \(id)` again (`betactl serve` also retries it in the background)")
            }
            if !json { invocation.print("Delivered a test event to webhook \(id): the endpoint answered \(delivery.lastStatus ?? 0).") }
        case "deliveries":
            let id = try target.map { _ in try webhookID(target, action: action, invocation) }
            let deliveries = try Webhooks(home: try invocation.openHome()).deliveries(webhookID: id)
            if json {
                try invocation.printJSON(WebhookJSON.DeliveryListJSON(deliveries: deliveries.map(WebhookJSON.delivery)))
                return
            }
            guard !deliveries.isEmpty else {
                invocation.print("No deliveries yet.")
                return
            }
            var table = Table(headers: ["ID", "WEBHOOK", "EVENT", "STATE", "ATTEMPTS", "LAST", "WHEN"])
            for delivery in deliveries {
                table.rows.append([String(delivery.id), String(delivery.webhookID), delivery.event, delivery.state, String(delivery.attempts),
                                   delivery.lastStatus.map(String.init) ?? delivery.lastError ?? "",
                                   Timestamp.string(delivery.lastAttemptAt ?? delivery.createdAt)])
            }
            invocation.console.writeOut(table.render(style: invocation.style))
        default:
            throw invocation.usageError("unknown webhook action \"\(action)\"; use webhook add URL, list, remove ID, test ID or deliveries [ID]")
        }
    }

    static func describe(_ events: [WebhookEvent]) -> String {
        events.isEmpty ? "every event" : events.map(\.rawValue).joined(separator: ", ")
    }

    static func webhookID(_ target: String?, action: String, _ invocation: Invocation) throws -> Int64 {
        guard let target else { throw invocation.usageError("webhook \(action) needs the webhook's ID, see `betactl webhook list`") }
        guard let id = Int64(target), id > 0 else { throw WebhookError.unknownWebhook(target) }
        return id
    }
}
