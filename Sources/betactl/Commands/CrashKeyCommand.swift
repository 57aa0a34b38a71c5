import BetaKit
import BetaJSON

/// `betactl crash-key create BUNDLE_ID | list | revoke KEY`: apps' write-only ingest keys.
enum CrashKeyCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "crash-key", summary: "Create, list or revoke an app's crash ingest key.",
        arguments: [ArgumentSpec(name: "ACTION", help: "create, list or revoke."),
                    ArgumentSpec(name: "VALUE", help: "create: the app's bundle id; revoke: the key or its number.", isOptional: true)],
        options: [.json],
        discussion: """
        An ingest key lets an app's crash reporter send reports and nothing else: HockeySDK posts to \
        <public-url>/api/2/apps/KEY/crashes (set the key as the app identifier and the server URL as its server), \
        KSCrash's standard sink to <public-url>/api/kscrash/KEY, anything else the report itself to \
        <public-url>/api/v1/crashes?key=KEY. It is not a tester link. A revoked key is refused; the reports it \
        brought in are kept.
        """,
        group: .crashes)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let store = CrashStore(home: try invocation.openHome())
        let value = args.argument("VALUE")
        switch args.argument("ACTION") ?? "" {
        case "create":
            guard let bundleID = value else { throw invocation.usageError("give the app's bundle id: crash-key create com.example.app") }
            let key = try store.createKey(bundleID: bundleID, now: invocation.now)
            if args.flag("--json") { return try invocation.printJSON(CrashJSON.key(key)) }
            let base = store.home.settings.publicURL
            invocation.print("Ingest key \(key.id) for \(key.bundleID): \(key.key)")
            invocation.print("  HockeySDK   \(base)/api/2/apps/\(key.key)/crashes")
            invocation.print("  KSCrash     \(base)/api/kscrash/\(key.key)")
            invocation.print("  raw         \(base)/api/v1/crashes?key=\(key.key)")
        case "list":
            guard value == nil else { throw invocation.usageError("crash-key list takes no value") }
            let keys = try store.keys()
            if args.flag("--json") { return try invocation.printJSON(keys.map(CrashJSON.key)) }
            guard !keys.isEmpty else {
                invocation.print("No ingest keys yet. Create one with `betactl crash-key create BUNDLE_ID`.")
                return
            }
            var table = Table(headers: ["ID", "APP", "KEY", "CREATED", "STATUS"])
            for key in keys {
                table.rows.append([String(key.id), key.bundleID, key.key, CalendarDate(key.createdAt).description,
                                   key.revokedAt.map { "revoked \(CalendarDate($0))" } ?? "active"])
            }
            invocation.console.writeOut(table.render(style: invocation.style))
        case "revoke":
            guard let reference = value else { throw invocation.usageError("give the key or its number: crash-key revoke 1") }
            let key = try store.revokeKey(reference, now: invocation.now)
            if args.flag("--json") { return try invocation.printJSON(CrashJSON.key(key)) }
            invocation.print("Revoked ingest key \(key.id) for \(key.bundleID); reports it sent are kept.")
        case let other:
            throw invocation.usageError("unknown action \"\(other)\"; use create, list or revoke")
        }
    }
}
