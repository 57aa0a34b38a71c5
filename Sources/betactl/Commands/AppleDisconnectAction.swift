import BetaKit

/// `betactl apple disconnect`.
enum AppleDisconnectAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        try AppleCommand.requireNoValues(invocation, values, action: "disconnect")
        let home = try invocation.openHome()
        guard try AppleAccount(home: home).disconnect() else {
            throw CommandFailure(description: "no App Store Connect key is connected, so there is nothing to remove; `betactl apple status` says what is there")
        }
        invocation.print("Removed the App Store Connect key from this home; nothing at Apple was changed (revoke the key in App Store Connect if it is no longer wanted).")
    }
}
