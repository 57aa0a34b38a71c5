/// The body of one delivery in an endpoint's format.
enum WebhookBody {
    /// The stored event a body is made from.
    struct Event: Sendable {
        var type: String
        /// The `data` object's JSON text.
        var payload: String
        /// A sentence for people.
        var summary: String
        /// The dashboard page, absolute.
        var link: String?
        /// When it happened, `YYYY-MM-DDTHH:MM:SSZ`.
        var timestamp: String
    }

    static func bytes(_ event: Event, format: Webhook.Format) -> [UInt8] {
        let headline = WebhookEvent(rawValue: event.type)?.headline ?? event.type
        switch format {
        case .standard:
            var out = "{\"type\":"
            WebhookData.quote(event.type, into: &out)
            out += ",\"timestamp\":"
            WebhookData.quote(event.timestamp, into: &out)
            out += ",\"data\":" + event.payload + "}"
            return Array(out.utf8)
        case .slack:
            // Slack's mrkdwn: &, < and > are escaped; links are <url|label>.
            let text = "*\(slackEscaped(headline))*: \(slackEscaped(event.summary))" + (event.link.map { " <\(slackEscaped($0))|Open>" } ?? "")
            let body = WebhookData.object([
                ("text", .string(text)),
                ("blocks", .array([.object([("type", "section"), ("text", .object([("type", "mrkdwn"), ("text", .string(text))]))])])),
            ])
            return Array(body.json.utf8)
        case .discord:
            var embed: [(String, WebhookData)] = [("title", .string(String(headline.prefix(256)))),
                                                  ("description", .string(String(event.summary.prefix(4096))))]
            if let link = event.link { embed.append(("url", .string(link))) }
            embed.append(("timestamp", .string(event.timestamp)))
            let body = WebhookData.object([
                ("content", .string(String("\(headline): \(event.summary)".prefix(2000)))),
                ("embeds", .array([.object(embed)])),
                ("allowed_mentions", .object([("parse", .array([]))])),
            ])
            return Array(body.json.utf8)
        }
    }

    static func slackEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
