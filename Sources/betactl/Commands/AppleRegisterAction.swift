import AppleFormats
import BetaKit
import BetaJSON

/// `betactl apple register [UDID... | --approved] [--json]`.
enum AppleRegisterAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        let approved = invocation.arguments.flag("--approved")
        guard approved != !values.isEmpty else {
            throw invocation.usageError(approved ? "give either UDIDs or --approved, not both" : "apple register needs UDIDs, or --approved for every device not yet registered")
        }
        var udids: [DeviceIdentifier] = []
        for value in values {
            do { udids.append(try DeviceIdentifier(value)) } catch { throw CommandFailure(description: error.description, category: .invalidInput) }
        }
        let home = try invocation.openHome()
        let account = AppleAccount(home: home)
        if approved { udids = try account.approvedUnregistered().map(\.identifier) }
        guard !udids.isEmpty else {
            invocation.print("Every active roster device is already registered at Apple.")
            return
        }
        let result = try account.register(udids, client: try AppleCommand.client(home: home), now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(AppleJSON.register(result))
        } else {
            for outcome in result.outcomes {
                switch outcome.kind {
                case .registered: invocation.print("Registered \(outcome.udid) as \"\(outcome.name)\".")
                case .alreadyRegistered: invocation.print("\(outcome.udid) was already registered at Apple.")
                case .refused: invocation.printError("not registered: \(outcome.reason ?? "")")
                }
            }
        }
        if result.count(.refused) > 0 {
            throw CommandFailure(description: "\(result.count(.refused)) of \(result.outcomes.count) devices could not be registered (see above)")
        }
    }
}
