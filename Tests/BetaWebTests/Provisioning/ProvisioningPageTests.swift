import AppleFormats
@testable import BetaKit
@testable import BetaWeb
import Foundation
import Testing
import TestSupport

/// How a tester's page words where the automatic flow stands for a device, without a server.
@Suite struct ProvisioningPageTests {
    @Test func eachStateHasItsWordsAndOnlyPendingWorkReloadsThePage() throws {
        let device = try EnrollmentPageTests.device("00008120-001A2B3C4D5E6F70")
        let covered = ProfileCoverage(allDevices: false, udids: ["00008120-001A2B3C4D5E6F70"], isKnown: true)
        let registering = DeviceRow(device: device, newest: EnrollmentPageTests.release, coverage: covered, provisioning: .registering)
        #expect(registering.status == .registering && registering.statusText == "Being registered with Apple…" && registering.isPending)
        let preparing = DeviceRow(device: device, newest: nil, coverage: nil, provisioning: .preparing)
        #expect(preparing.status == .preparing && preparing.statusText == "Preparing your build…" && preparing.isPending)
        let failed = DeviceRow(device: device, newest: nil, coverage: nil, provisioning: .failed)
        #expect(failed.status == .provisioningFailed && failed.statusText.contains("the team has been told") && !failed.isPending)
        let ready = DeviceRow(device: device, newest: EnrollmentPageTests.release, coverage: covered, provisioning: nil)
        #expect(ready.statusText == "Ready: installs 2.0 (9)", "once the flow is done, the newest build's words")
        let removed = try EnrollmentPageTests.device("00008120-001A2B3C4D5E6F70", removed: true)
        #expect(DeviceRow(device: removed, newest: nil, coverage: nil, provisioning: .preparing).status == .removed, "a removed device says so")
    }

    @Test func theDeviceStateFollowsItsNewestRegistrationAndTheBatchThatHoldsIt() throws {
        let directory = try TemporaryDirectory()
        let home = try Home.initialise(at: directory.path + "/home", change: HomeSettingsChange(), now: Date()).home
        func plant(_ kind: String, _ state: String, subject: String, payload: String) throws {
            try home.store.write { db in
                try db.query("INSERT INTO jobs (kind, state, step, subject, payload, created_at, updated_at) VALUES (?, ?, '', ?, ?, '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z')",
                             [.text(kind), .text(state), .text(subject), .text(payload)])
            }
        }
        let a = "00008120-00000000000000A1", b = "00008120-00000000000000B1", c = "00008120-00000000000000C1", d = "00008120-00000000000000D1"
        try plant("register-device", "waiting", subject: a, payload: "{}")
        try plant("register-device", "succeeded", subject: b, payload: "{}")
        try plant("register-device", "succeeded", subject: c, payload: "{}")
        try plant("register-device", "failed", subject: d, payload: "{}")
        try plant("refresh-apps", "succeeded", subject: c, payload: #"{"udids":["\#(c)"]}"#)
        try plant("refresh-apps", "running", subject: b, payload: #"{"udids":["\#(b.lowercased())"]}"#)
        let states = try home.store.read { db in try DeviceProvisioning.load(db: db) }
        #expect(states == [a: .registering, b: .preparing, d: .failed], "c's batch finished: its row says what the newest build means")
    }
}
