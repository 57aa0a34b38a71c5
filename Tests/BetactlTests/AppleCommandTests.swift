import Foundation
import Testing
import TestSupport

@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AppleCommandTests {
    func connectArguments(_ server: AppStoreConnectServer, keyID: String? = nil, key: String? = nil) -> [String] {
        ["apple", "connect", "--key", key ?? server.key.path, "--key-id", keyID ?? server.key.id, "--issuer-id", server.key.issuer,
         "--base-url", server.baseURL, "--ca-file", server.caFile]
    }

    @Test func connectingChecksTheKeyWithOneCallThenStatusAndDisconnectWork() throws {
        let server = try AppStoreConnectServer(scenario: ["generate_devices": 3, "bundle_ids": ["com.example.beta"]])
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let connected = try cli.run(connectArguments(server))
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(connected.stdout.contains("Connected App Store Connect key ABC123DEFG (team TEAMID1234)."))
        #expect(try server.calls().count == 1, "one call checks the key")

        let keyFile = dir.child("home/secrets/app-store-connect.json")
        let mode = (try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let secret = try String(contentsOfFile: server.key.path, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let synced = try cli.run("apple", "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let status = try cli.run("apple", "status", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(json?["keyId"] as? String == "ABC123DEFG")
        #expect(json?["teamId"] as? String == "TEAMID1234")
        #expect(json?["appleDevices"] as? Int == 3)
        #expect(json?["lastSync"] is String)
        #expect((json?["rateLimit"] as? String)?.hasPrefix("user-hour-lim:3500;user-hour-rem:") == true)
        let text = try cli.ok("apple", "status")
        #expect(text.contains("at Apple    3 devices"))

        // Never printed, never logged: not the key, not a token.
        let log = try String(contentsOfFile: dir.child("home/logs/app-store-connect.log"), encoding: .utf8)
        #expect(log.contains("GET /v1/devices?limit=200 200 request-id="))
        for output in [connected.stdout, connected.stderr, synced.stdout, synced.stderr, status.stdout, text, log] {
            #expect(!output.contains(String(secret.prefix(24))))
            #expect(!output.contains("eyJ"), "no JWT")
            #expect(!output.contains("Bearer"))
        }
        #expect(try server.problems() == [])

        #expect(try cli.ok("apple", "disconnect").contains("Removed the App Store Connect key"))
        #expect(!FileManager.default.fileExists(atPath: keyFile))
        #expect(try cli.ok("apple", "status").contains("No App Store Connect key is connected."))
        let again = try cli.run("apple", "disconnect")
        #expect(again.status == 1)
        let sync = try cli.run("apple", "sync")
        #expect(sync.stderr.contains("no App Store Connect key is connected; connect one with `betactl apple connect"))
    }

    @Test func eachKindOfBadKeyGetsOneSentenceAndNothingIsStored() throws {
        let server = try AppStoreConnectServer()
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let rsa = dir.child("rsa.p8")
        try TestKeys.rsa("not-p256", bits: 1024, copiedTo: rsa)
        let notP256 = try cli.run(connectArguments(server, key: rsa))
        #expect(notP256.status == 65)
        #expect(notP256.stderr.contains("is a private key but not an elliptic-curve P-256 key"))

        let unknown = try cli.run(connectArguments(server, keyID: "ZZZ999YYYX"))
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("App Store Connect does not accept key ZZZ999YYYX (401:"))
        #expect(unknown.stderr.contains("check the key id and issuer id"))
        #expect(unknown.stderr.split(separator: "\n").count == 1, "one sentence, no dump")

        let forbiddenServer = try AppStoreConnectServer(scenario: ["forbidden": true], key: server.key)
        let forbidden = try cli.run(["apple", "connect", "--key", server.key.path, "--key-id", server.key.id, "--issuer-id", server.key.issuer,
                                     "--base-url", forbiddenServer.baseURL, "--ca-file", forbiddenServer.caFile])
        #expect(forbidden.status == 1)
        #expect(forbidden.stderr.contains("key ABC123DEFG lacks the role this needs (403:"))
        #expect(forbidden.stderr.contains("Admin or App Manager"))

        #expect(try cli.ok("apple", "status").contains("No App Store Connect key is connected."), "nothing was stored by the failures")
    }

    @Test func withoutLibcurlTheCommandSaysWhatToInstallAndEverythingElseWorks() throws {
        let server = try AppStoreConnectServer()
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"), extraEnvironment: ["BETACTL_LIBCURL": dir.child("no-such-libcurl.so")])
        try cli.ok("init")
        let result = try cli.run(connectArguments(server))
        #expect(result.status == 1)
        #expect(result.stderr.contains("libcurl could not be loaded"))
        #expect(result.stderr.contains("apt install libcurl4"))
        #expect(try cli.ok("devices").contains("Membership year"))
    }

    @Test func registerAndProfileRunEndToEnd() throws {
        let server = try AppStoreConnectServer(scenario: ["generate_devices": 5, "bundle_ids": ["com.example.beta", "com.example.beta.widget"]])
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        #expect(try cli.run(connectArguments(server)).status == 0)
        _ = try cli.ok("add-tester", "Ann Lee")
        _ = try cli.ok("add-device", "Ann Lee", "00008030-0000000000000A01", "--model", "iPhone15,2")
        #expect(try cli.ok("apple", "sync").contains("Apple has 5 devices"))
        let devices = try cli.ok("devices")
        #expect(devices.contains("Apple: Apple counts 1 iPhone slot, 1 fewer than the roster's 2: 1 in the roster is not registered at Apple"),
                "the ledger says by how much and why")
        #expect(devices.split(separator: "\n").contains { $0.hasPrefix("00008030-0000000000000A01") && $0.hasSuffix("not-registered") })
        let registered = try cli.run("apple", "register", "--approved", "--json")
        #expect(registered.status == 0, "\(registered.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(registered.stdout.utf8)) as? [String: Any]
        #expect(json?["registered"] as? Int == 1)
        #expect(try cli.ok("apple", "register", "--approved").contains("already registered"))
        #expect(try cli.ok("devices").split(separator: "\n").contains { $0.hasPrefix("00008030-0000000000000A01") && $0.hasSuffix("registered") })
        let profile = try cli.run("apple", "profile", "com.example.beta")
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(profile.stdout.contains("Made \"betactl com.example.beta "))
        #expect(try cli.ok("profiles").contains("betactl com.example.beta "), "imported")
        #expect(try server.problems() == [])
        let usage = try cli.run("apple", "register")
        #expect(usage.status == 64)
    }
}
