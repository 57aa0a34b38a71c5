import BetaKit
import BetaJSON

/// `betactl apple sync [--json]`.
enum AppleSyncAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        try AppleCommand.requireNoValues(invocation, values, action: "sync")
        let home = try invocation.openHome()
        let result = try AppleAccount(home: home).sync(client: try AppleCommand.client(home: home), now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(AppleJSON.sync(result))
            return
        }
        invocation.print("Apple has \(result.appleDevices) device\(result.appleDevices == 1 ? "" : "s") (\(result.appleDisabled) disabled).")
        if !result.imported.isEmpty {
            invocation.print("Imported \(result.imported.count) device\(result.imported.count == 1 ? "" : "s") registered at Apple that the roster did not have (no tester yet).")
        }
        invocation.print("Roster: \(result.registered) registered, \(result.disabled) disabled at Apple, \(result.pending) not registered.")
        for entry in result.ledger {
            if let explanation = entry.explanation { invocation.print(invocation.style.yellow("ledger:") + " " + explanation) }
        }
    }
}
