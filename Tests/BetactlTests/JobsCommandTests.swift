@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// `betactl apple auto` and `betactl jobs`: the switch names what it lacks; the queue's commands
/// refuse what does not exist or cannot be done, naming the job and the fix.
@Suite struct JobsCommandTests {
    /// A new home (the folder lives as long as the returned value).
    func home() throws -> (cli: Betactl, directory: TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        return (cli, dir)
    }

    @Test func autoOnRefusesNamingEachMissingPieceAndItsCommand() throws {
        let (cli, directory) = try home()
        defer { withExtendedLifetime(directory) {} }
        #expect(try cli.ok("apple", "auto", "status").contains("Automatic provisioning: off (batching window 120 s)"))
        let refused = try cli.run("apple", "auto", "on")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("betactl apple connect"))
        #expect(refused.stderr.contains("betactl code-identity import"))
        #expect(refused.stderr.contains("betactl approval-rule set"))
        try cli.ok("approval-rule", "set", "--all")
        let still = try cli.run("apple", "auto", "on")
        #expect(!still.stderr.contains("approval-rule"), "the rule is set now")
        let status = try JSONSerialization.jsonObject(with: Data(try cli.ok("apple", "auto", "status", "--window", "30", "--json").utf8)) as? [String: Any]
        #expect(status?["enabled"] as? Bool == false)
        #expect(status?["window"] as? Int == 30, "the window is kept while off")
        #expect((status?["missing"] as? [String])?.count == 2)
        let badWindow = try cli.run("apple", "auto", "status", "--window", "soon")
        #expect(badWindow.status == 65)
        #expect(badWindow.stderr.contains("whole seconds from 0 to 86400"))
        let badAction = try cli.run("apple", "auto", "maybe")
        #expect(badAction.status != 0 && badAction.stderr.contains("use on, off or status"))
    }

    @Test(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
    func anAdminApprovalIsProvisionedByJobsRunAndTheOldBuildIsListedOnlyWithAll() throws {
        let (cli, directory) = try home()
        defer { withExtendedLifetime(directory) {} }
        let apple = try AppStoreConnectServer(scenario: [
            "generate_devices": 3, "bundle_ids": ["com.example.beta", "com.example.beta.widget"],
            "entitlements": ["aps-environment": "production", "com.apple.developer.associated-domains": "*",
                             "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
                             "com.apple.security.application-groups": ["group.com.example.beta"]],
        ])
        let app = { (name: String) in LocalFixtures.url("formats/app/\(name)").path }
        try cli.ok("add-tester", "Ann Lee")
        try cli.ok("apple", "connect", "--key", apple.key.path, "--key-id", apple.key.id, "--issuer-id", apple.key.issuer,
                   "--base-url", apple.baseURL, "--ca-file", apple.caFile)
        try cli.ok("code-identity", "import", apple.directory.child("state/dist0.pem"), apple.directory.child("state/dist0.key"))
        try cli.ok("release", app("Beta.ipa"), "--dsym", app("Beta.app.dSYM.zip"), "--dsym", app("BetaWidget.appex.dSYM.zip"))
        // The rule only lets `on` through; the request below waits for the admin.
        try cli.ok("approval-rule", "set", "--group", "nobody")
        #expect(try cli.ok("apple", "auto", "on", "--window", "0").contains("Automatic provisioning: on (batching window 0 s)"))
        let udid = "00008120-00000000000000E1"
        try Home.open(at: cli.home).store.write { db in
            try db.query("INSERT INTO device_requests (udid, tester_id, family, product, requested_at) VALUES (?, 1, 'iphone', 'iPhone15,2', '2026-11-27T10:00:00Z')",
                         [.text(udid)])
        }
        try cli.ok("approve-device", udid)
        #expect(try cli.ok("jobs").contains("register-device"))
        let ran = try cli.ok("jobs", "run")
        #expect(ran.contains("(register-device) succeeded at step registered"))
        #expect(ran.contains("(refresh-apps) succeeded at step ready"))
        let jobs = try JSONSerialization.jsonObject(with: Data(try cli.ok("jobs", "--json").utf8)) as? [[String: Any]] ?? []
        #expect(jobs.map { $0["state"] as? String } == ["succeeded", "succeeded"])
        #expect(try cli.ok("jobs", "--active").contains("No jobs."))
        let cancel = try cli.run("jobs", "cancel", "1")
        #expect(cancel.status == 1 && cancel.stderr.contains("job 1 already succeeded, so it cannot be cancelled"))
        #expect(try cli.ok("releases").components(separatedBy: "\n").filter { $0.contains("com.example.beta") || $0.contains("Beta") }.count == 1)
        #expect(try cli.ok("releases", "--all").contains("superseded by 2"))
        #expect(try apple.problems() == [])
    }

    @Test func jobsListsNothingAndRefusesUnknownJobsAndActions() throws {
        let (cli, directory) = try home()
        defer { withExtendedLifetime(directory) {} }
        #expect(try cli.ok("jobs").contains("No jobs."))
        #expect((try JSONSerialization.jsonObject(with: Data(try cli.ok("jobs", "--json").utf8)) as? [Any])?.isEmpty == true)
        #expect(try cli.ok("jobs", "run").contains("No job is due."))
        let unknown = try cli.run("jobs", "retry", "7")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("there is no job 7; list them with `betactl jobs`"))
        let missing = try cli.run("jobs", "cancel")
        #expect(missing.status == 64 && missing.stderr.contains("needs the job's number"))
        let bogus = try cli.run("jobs", "frobnicate")
        #expect(bogus.status == 64 && bogus.stderr.contains("use list, retry ID, cancel ID or run"))
    }
}
