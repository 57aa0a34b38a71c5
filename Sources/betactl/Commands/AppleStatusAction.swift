import BetaKit
import BetaJSON

/// `betactl apple status [--json]`.
enum AppleStatusAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        try AppleCommand.requireNoValues(invocation, values, action: "status")
        let home = try invocation.openHome()
        let status = try AppleAccount(home: home).status(now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(AppleJSON.status(status))
            return
        }
        guard let keyID = status.keyID else {
            invocation.print("No App Store Connect key is connected.")
            invocation.print(invocation.style.dim("Connect one with `betactl apple connect --key AuthKey_ID.p8 --key-id ID --issuer-id UUID`."))
            return
        }
        invocation.print("App Store Connect key \(keyID)")
        invocation.print("  team        \(status.teamID ?? "unknown")")
        if let base = status.baseURL, base != AppStoreConnectConnection.appleBaseURL { invocation.print("  base URL    \(base)") }
        invocation.print("  last sync   \(status.lastSync.map(Timestamp.string) ?? "never (run `betactl apple sync`)")")
        invocation.print("  at Apple    \(status.appleDevices) device\(status.appleDevices == 1 ? "" : "s") (\(status.appleDisabled) disabled)")
        invocation.print("  registered  \(status.registered) roster device\(status.registered == 1 ? "" : "s")")
        if status.disabled > 0 { invocation.print("  disabled    \(status.disabled) roster device\(status.disabled == 1 ? " is" : "s are") disabled at Apple") }
        invocation.print("  pending     \(status.pending) not registered at Apple\(status.pending > 0 ? " (`betactl apple register --approved`)" : "")")
        invocation.print("  rate limit  \(status.rateLimit ?? "not seen yet")")
        for entry in status.ledger {
            if let explanation = entry.explanation { invocation.print("  " + invocation.style.yellow("ledger:") + " " + explanation) }
        }
    }
}
