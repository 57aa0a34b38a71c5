import BetaKit
import BetaJSON

/// `betactl token create|list|revoke`: API tokens for CI and the dashboard.
enum TokenCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "token", summary: "Create, list or revoke API tokens (for CI and the dashboard).",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "create, list or revoke."),
            ArgumentSpec(name: "NAME", help: "The token's name (create, revoke).", isOptional: true),
        ],
        options: [
            .value("--scope", "SCOPE", "read (lists and pages, the default), write (also releases, symbols, testers, devices and profiles) or admin (also tokens and settings)."),
            .flag("--all", "list: also revoked tokens."),
            .json,
        ],
        discussion: """
        `token create NAME` prints the token's secret once: betactl keeps only its SHA-256, so a lost secret \
        cannot be shown again (revoke it and create another). Send it as `Authorization: Bearer <secret>`, or \
        paste it into the dashboard's login page at /admin. `token revoke NAME` stops it at once and ends the \
        dashboard sessions opened with it.
        """,
        group: .server)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let action = args.argument("ACTION") ?? ""
        let name = args.argument("NAME")
        switch action {
        case "create":
            guard let name else { throw invocation.usageError("token create needs a NAME, e.g. betactl token create ci --scope write") }
            let scopeName = args.value("--scope") ?? "read"
            guard let scope = TokenScope(rawValue: scopeName) else { throw AuthError.invalidScope(scopeName) }
            let created = try AccessTokens(home: try invocation.openHome()).create(name: name, scope: scope, now: invocation.now)
            if args.flag("--json") {
                try invocation.printJSON(AdminJSON.created(created))
                return
            }
            invocation.print(created.secret)
            invocation.printError("Created the \(scope) token \(created.token.name). Its secret is printed above and is not stored: copy it now.")
        case "list":
            if name != nil { throw invocation.usageError("token list takes no NAME") }
            let tokens = try AccessTokens(home: try invocation.openHome()).list(includeRevoked: args.flag("--all"))
            if args.flag("--json") {
                try invocation.printJSON(AdminJSON.tokens(tokens))
                return
            }
            guard !tokens.isEmpty else {
                invocation.print("No tokens yet. Create one with `betactl token create NAME --scope read|write|admin`.")
                return
            }
            var table = Table(headers: ["NAME", "SCOPE", "CREATED", "LAST USED", "STATUS"])
            for token in tokens {
                table.rows.append([token.name, token.scope.rawValue, CalendarDate(token.createdAt).description,
                                   token.lastUsedAt.map { CalendarDate($0).description } ?? "never",
                                   token.revokedAt.map { "revoked \(CalendarDate($0))" } ?? "live"])
            }
            invocation.console.writeOut(table.render(style: invocation.style))
        case "revoke":
            guard let name else { throw invocation.usageError("token revoke needs the NAME of the token, see `betactl token list`") }
            let token = try AccessTokens(home: try invocation.openHome()).revoke(name: name, now: invocation.now)
            if args.flag("--json") {
                try invocation.printJSON(AdminJSON.token(token))
                return
            }
            invocation.print("Revoked the token \(token.name); it no longer authenticates and its dashboard sessions have ended.")
        default:
            throw invocation.usageError("unknown token action \"\(action)\"; use token create NAME, token list or token revoke NAME")
        }
    }
}
