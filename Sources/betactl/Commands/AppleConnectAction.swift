#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaJSON

/// `betactl apple connect --key FILE --key-id ID --issuer-id UUID`.
enum AppleConnectAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        try AppleCommand.requireNoValues(invocation, values, action: "connect")
        let arguments = invocation.arguments
        guard let path = arguments.value("--key"), let keyID = arguments.value("--key-id"), let issuerID = arguments.value("--issuer-id") else {
            throw invocation.usageError("apple connect needs --key AuthKey_ID.p8, --key-id ID and --issuer-id UUID")
        }
        let bytes = try FileIO.readFile(path, limit: 64 << 10)
        let key = try AppStoreConnectKey(pem: bytes, path: path, keyID: keyID, issuerID: issuerID)
        // The CA file is read by every later command, from wherever it runs: keep it absolute.
        let caFile = arguments.value("--ca-file").map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        if let caFile { _ = try FileIO.readFile(caFile, limit: 4 << 20) }
        let connection = try AppStoreConnectConnection(key: key, baseURL: arguments.value("--base-url"), caFile: caFile,
                                                       connectedAt: invocation.now)
        let home = try invocation.openHome()
        let connected = try AppleAccount(home: home).connect(connection)
        if arguments.flag("--json") {
            try invocation.printJSON(AppleJSON.status(try AppleAccount(home: home).status(now: invocation.now)))
            return
        }
        let team = connected.teamID.map { " (team \($0))" } ?? ""
        invocation.print("Connected App Store Connect key \(connected.keyID)\(team).")
        invocation.print(invocation.style.dim("Next: `betactl apple sync` reads Apple's device list and reconciles the roster with it."))
    }
}
