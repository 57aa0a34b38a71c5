import BetaKit
import BetaJSON

/// `betactl apple profile BUNDLE_ID [--certificate SERIAL] [--json]`.
enum AppleProfileAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        guard values.count == 1, let bundleID = values.first else {
            throw invocation.usageError("apple profile needs exactly one bundle id, the app's (its extensions get theirs too)")
        }
        let home = try invocation.openHome()
        let result = try AppleAccount(home: home).regenerateProfiles(for: bundleID, certificate: invocation.arguments.value("--certificate"),
                                                                     client: try AppleCommand.client(home: home), now: invocation.now)
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(AppleJSON.profiles(result))
            return
        }
        for made in result.profiles {
            let replaced = made.replaced.map { ", replacing \"\($0)\"" } ?? ""
            invocation.print("Made \"\(made.name)\" (\(made.uuid)) with \(made.devices) device\(made.devices == 1 ? "" : "s")\(replaced); imported.")
        }
        invocation.print(invocation.style.dim("Signed for distribution certificate \(result.certificateSerial); \(result.calls) call\(result.calls == 1 ? "" : "s") to Apple."))
    }
}
