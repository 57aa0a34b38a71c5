import AppleFormats
import BetaKit

/// `betactl apple ACTION`: provisioning through the App Store Connect API.
enum AppleCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "apple", summary: "Connect an App Store Connect key; sync, register devices and regenerate ad hoc profiles.",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "connect, status (the default), disconnect, sync, register, profile or auto."),
            ArgumentSpec(name: "VALUE", help: "register: UDIDs (or --approved); profile: the app's bundle id; auto: on, off or status.", isOptional: true, isRepeated: true),
        ],
        options: [
            .value("--key", "FILE", "connect: the AuthKey_ID.p8 file App Store Connect let you download."),
            .value("--key-id", "ID", "connect: the key's 10-character id."),
            .value("--issuer-id", "UUID", "connect: the team's issuer id (above the key list)."),
            .value("--base-url", "URL", "connect: another API base URL, for a test server (default Apple's)."),
            .value("--ca-file", "FILE", "connect: a PEM CA file to trust instead of the system's, for a test server."),
            .flag("--approved", "register: every active roster device not yet registered at Apple."),
            .value("--certificate", "SERIAL", "profile: the distribution certificate (serial number or id); by default the code-signing identity's, else the team's only one."),
            .value("--window", "SECONDS", "auto: how long approvals are gathered into one batch (default 120)."),
            .json,
        ],
        discussion: "The key is stored in the home's secrets folder (0600), never printed or logged, and left out of backups unless `backup --include-secrets`. `sync` reads Apple's device list, imports devices the roster lacks and reconciles the slot ledger with Apple's count; `register` registers roster devices (`--approved`: all not yet registered); `profile BUNDLE_ID` deletes the ad hoc profile betactl made before for the app and each extension and creates a new one with every enabled device, then imports it. `auto on` (off by default; it needs a key, a code-signing identity and an approval rule) makes every approved device request a job: register the device, regenerate the profiles of its tester's apps once per batching window, re-sign the newest builds and publish them in place of the old ones (see `betactl jobs`). Every call to Apple is logged in logs/app-store-connect.log in the home. Needs libcurl (Debian and Ubuntu: libcurl4) and libcrypto (libssl3).",
        group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let action = invocation.arguments.argument("ACTION") ?? "status"
        let values = invocation.arguments.arguments("VALUE")
        switch action {
        case "connect": try AppleConnectAction.run(invocation, values: values)
        case "status": try AppleStatusAction.run(invocation, values: values)
        case "disconnect": try AppleDisconnectAction.run(invocation, values: values)
        case "sync": try AppleSyncAction.run(invocation, values: values)
        case "register": try AppleRegisterAction.run(invocation, values: values)
        case "profile": try AppleProfileAction.run(invocation, values: values)
        case "auto": try AppleAutoAction.run(invocation, values: values)
        default: throw invocation.usageError("unknown action \"\(action)\"; use connect, status, disconnect, sync, register, profile or auto")
        }
    }

    /// Refuses values for actions that take none.
    static func requireNoValues(_ invocation: Invocation, _ values: [String], action: String) throws {
        guard values.isEmpty else { throw invocation.usageError("apple \(action) takes no argument (got \(values.joined(separator: " ")))") }
    }

    /// The client for the stored key; its calls are logged in the home's logs/app-store-connect.log.
    static func client(home: Home) throws -> AppStoreConnectClient {
        try AppleAccount(home: home).client()
    }
}
