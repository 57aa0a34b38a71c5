import AppleFormats
import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// The closed loop in process: an approved device is registered with Apple, its batch regenerates
/// the app's profiles once, the newest release is re-signed and supersedes the original, and the
/// device is announced ready; failures wait and retry, or stop with the fix.
@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct ProvisioningFlowTests {
    @Test func anApprovedDeviceEndsUpInANewProfileAndAReSignedBuildThatSupersedesTheOriginal() throws {
        let f = try ProvisioningFixture()
        let udid = ProvisioningFixture.udid(1)
        try f.enrolAndApprove(udid)
        let queued = try f.queue.jobs()
        #expect(queued.map(\.kind) == ["register-device"], "the approval queued the registration in its own transaction")
        #expect(queued.first?.subject == udid)

        let ran = try f.provisioner.runDue()
        #expect(ran.map(\.kind) == ["register-device", "refresh-apps"])
        #expect(ran.map(\.lastError) == [nil, nil])
        #expect(try f.changingCalls() == ["POST /v1/devices", "POST /v1/profiles", "POST /v1/profiles"], "one registration, one profile per bundle id")
        #expect(try f.server.problems() == [])

        let archive = Archive(home: f.home)
        let releases = try archive.releases()
        let resigned = try #require(releases.first)
        #expect(resigned.resignedFrom == f.original.id)
        #expect(try archive.release(id: f.original.id).supersededBy == resigned.id, "the original is superseded, still archived")
        #expect(resigned.version == f.original.version && resigned.build == f.original.build)
        let profile = try archive.profile(matching: try #require(resigned.profileUUID))
        #expect(profile.provisionedDevices?.contains(udid) == true, "the embedded profile lists the new device")
        let snapshot = try DistributionSnapshot.load(from: f.home)
        #expect(snapshot.releases(offeredTo: f.tester).map(\.id) == [resigned.id], "the tester sees one entry for the version")

        let ready = try f.events(.deviceReady)
        #expect(ready.count == 1)
        #expect(ready.first?.contains(udid) == true)
        #expect(ready.first?.contains("\"id\":\(resigned.id)") == true, "device.ready names the build it can install")
        #expect(try f.events(.jobFailed).isEmpty)
    }

    @Test func tenApprovalsWithinTheWindowShareOneProfileRegenerationAndOneReSign() throws {
        let f = try ProvisioningFixture(window: 3600)
        for number in 1 ... 10 { try f.enrolAndApprove(ProvisioningFixture.udid(number)) }
        let registered = try f.provisioner.runDue()
        #expect(registered.count == 10 && registered.allSatisfy { $0.kind == "register-device" && $0.state == .succeeded })
        let batches = try f.queue.jobs().filter { $0.kind == "refresh-apps" }
        #expect(batches.count == 1)
        let batch = try #require(batches.first)
        #expect(batch.state == .waiting && batch.step == "batching", "the window is still open")
        #expect(batch.subject?.split(separator: ",").count == 10)
        // Close the window now rather than wait an hour.
        try f.queue.retry(id: batch.id, now: Date())
        let refreshed = try f.provisioner.runDue()
        #expect(refreshed.map(\.state) == [.succeeded])
        let changing = try f.changingCalls()
        #expect(changing.filter { $0 == "POST /v1/devices" }.count == 10)
        #expect(changing.filter { $0 == "POST /v1/profiles" }.count == 2, "one regeneration: the app's profile and its widget's")
        let releases = try Archive(home: f.home).releases()
        #expect(releases.count == 2, "one re-signed release")
        let profile = try Archive(home: f.home).profile(matching: try #require(releases.first?.profileUUID))
        #expect(Set((1 ... 10).map(ProvisioningFixture.udid)).isSubset(of: Set(profile.provisionedDevices ?? [])))
        #expect(try f.events(.deviceReady).count == 10)
    }

    @Test func aDeviceAppleAlreadyHasIsFoundByItsUDIDNotRegisteredAgain() throws {
        let udid = ProvisioningFixture.udid(7)
        let f = try ProvisioningFixture(scenario: ["devices": [["udid": udid, "name": "Registered before the kill"]]])
        try f.enrolAndApprove(udid)
        let ran = try f.provisioner.runDue()
        #expect(ran.allSatisfy { $0.state == .succeeded })
        #expect(try f.changingCalls().filter { $0.hasPrefix("POST /v1/devices") }.isEmpty, "looked up by UDID, found, not sent again")
        #expect(try f.server.calls().contains { $0.method == "GET" && $0.path.contains("filter%5Budid%5D=\(udid)") || $0.path.contains("filter[udid]=\(udid)") })
    }

    @Test func aBatchResumedAfterAppleMadeItsProfileAdoptsItInsteadOfMakingAnother() throws {
        let f = try ProvisioningFixture(window: 3600)
        let udid = ProvisioningFixture.udid(2)
        try f.enrolAndApprove(udid)
        try f.provisioner.runDue()
        var batch = try #require(try f.queue.jobs().first { $0.kind == "refresh-apps" })
        // As a run killed after Apple answered the creations would leave it: stamps recorded, profiles made at Apple.
        var payload = try JSONDecoder().decode(ProvisioningPayload.Batch.self, from: Data(batch.payload.utf8))
        payload.releases = [f.original.id]
        payload.stamps["com.example.beta"] = "2026-11-27 10:00 job \(batch.id)"
        _ = try AppleAccount(home: f.home).regenerateProfiles(for: "com.example.beta", certificate: nil, client: try f.apple.client(),
                                                              now: Date(), stamp: payload.stamps["com.example.beta"])
        try f.home.store.write { db in
            try JobQueue.progress(batch.id, step: "profiles", payload: payload.json, db: db, now: Date())
        }
        let before = try f.changingCalls().count
        try f.queue.retry(id: batch.id, now: Date())
        let ran = try f.provisioner.runDue()
        #expect(ran.map(\.state) == [.succeeded], "\(ran.map { $0.lastError ?? "" })")
        #expect(try f.changingCalls().count == before, "no profile deleted or created again")
        batch = try f.queue.job(id: batch.id)
        #expect(batch.step == "ready")
        #expect(try f.server.problems() == [])
    }

    @Test func aReSignPublishedByARunKilledBeforeItRecordedItIsAdoptedNotSignedAgain() throws {
        let f = try ProvisioningFixture()
        try f.enrolAndApprove(ProvisioningFixture.udid(10))
        try f.provisioner.runDue()
        let batch = try #require(try f.queue.jobs().first { $0.kind == "refresh-apps" })
        let resigned = try #require(try Archive(home: f.home).releases().first)
        // As a kill right after the publish would leave it: the release is there, its link and the job's record are not.
        var payload = try JSONDecoder().decode(ProvisioningPayload.Batch.self, from: Data(batch.payload.utf8))
        payload.resigned = [:]
        try f.home.store.write { db in
            try db.query("DELETE FROM release_resigns WHERE release_id = ?", [.integer(resigned.id)])
            try db.query("UPDATE jobs SET state = 'failed', step = 'resign', payload = ? WHERE id = ?", [.text(payload.json), .integer(batch.id)])
        }
        #expect(try Archive(home: f.home).release(id: f.original.id).supersededBy == nil)
        try f.queue.retry(id: batch.id, now: Date())
        #expect(try f.provisioner.runDue().map(\.state) == [.succeeded])
        let releases = try Archive(home: f.home).releases()
        #expect(releases.map(\.id) == [resigned.id, f.original.id], "no second re-signed release")
        #expect(releases.first?.resignedFrom == f.original.id)
        #expect(try Archive(home: f.home).release(id: f.original.id).supersededBy == resigned.id, "the link is made again")
    }

    @Test func aServerErrorLeavesTheJobWaitingWithTheReasonAndARetryFinishesIt() throws {
        // The first call (the lookup by UDID) gets a 503.
        let f = try ProvisioningFixture(scenario: ["unavailable_on_call": 1])
        try f.enrolAndApprove(ProvisioningFixture.udid(3))
        // A clock that stands still, so "not due yet" does not depend on how fast this machine is.
        let fixed = Date()
        let provisioner = Provisioner(home: f.home, retry: .none, clock: { fixed })
        let first = try provisioner.runDue()
        let job = try #require(first.first)
        #expect(job.state == .waiting)
        #expect(job.lastError?.contains("503") == true)
        let wait = try #require(job.nextAttemptAt).timeIntervalSince(fixed)
        #expect(abs(wait - JobQueue.backoff(attempts: 1)) < 0.01, "it waits 5 s before the next run (stored to the millisecond)")
        #expect(try provisioner.runDue().isEmpty, "not due yet")
        try f.queue.retry(id: job.id, now: Date())
        #expect(try f.provisioner.runDue().allSatisfy { $0.state == .succeeded })
    }

    @Test func withoutACodeSigningIdentityTheBatchStopsWithTheFixAndJobFailedIsSent() throws {
        let f = try ProvisioningFixture()
        try CodeIdentityStore(home: f.home).remove()
        try f.enrolAndApprove(ProvisioningFixture.udid(4))
        let ran = try f.provisioner.runDue()
        let batch = try #require(ran.last)
        #expect(batch.kind == "refresh-apps" && batch.state == .failed)
        #expect(batch.lastError?.contains("no code-signing identity is stored") == true)
        #expect(batch.lastError?.contains("betactl code-identity import") == true)
        #expect(batch.lastError?.contains("betactl jobs retry \(batch.id)") == true)
        #expect(try f.changingCalls() == ["POST /v1/devices"], "it stopped before asking Apple for profiles")
        let failed = try f.events(.jobFailed)
        #expect(failed.count == 1 && failed.first?.contains("no code-signing identity") == true)
        // Fixed, then retried from the step it reached.
        try ProvisioningFixture.importIdentity(server: f.server, home: f.home)
        try f.queue.retry(id: batch.id, now: Date())
        #expect(try f.provisioner.runDue().map(\.state) == [.succeeded])
    }

    @Test func aProfileThatCannotAllowAnEntitlementStopsTheBatchNamingTheCapability() throws {
        let f = try ProvisioningFixture(scenario: ["entitlements": [String: Any]()])
        try f.enrolAndApprove(ProvisioningFixture.udid(9))
        let batch = try #require(try f.provisioner.runDue().last)
        #expect(batch.state == .failed && batch.step == "resign")
        #expect(batch.lastError?.contains("com.apple.security.application-groups") == true)
        #expect(batch.lastError?.contains("enable the capability for the App ID") == true)
        #expect(try Archive(home: f.home).releases().count == 1, "nothing half-published")
        #expect(try f.events(.jobFailed).count == 1)
    }

    @Test func anExpiredCodeSigningCertificateStopsTheBatchBeforeAppleIsAskedForProfiles() throws {
        let f = try ProvisioningFixture()
        try f.enrolAndApprove(ProvisioningFixture.udid(11))
        // Two years on, the server's distribution certificate (365 days) has expired.
        let later = Provisioner(home: f.home, retry: .none, clock: { Date().addingTimeInterval(2 * 365 * 86_400) })
        let batch = try #require(try later.runDue().last)
        #expect(batch.kind == "refresh-apps" && batch.state == .failed)
        #expect(batch.lastError?.contains("certificate \"") == true && batch.lastError?.contains("expired on") == true)
        #expect(batch.lastError?.contains("import a current Apple Distribution identity with `betactl code-identity import`") == true)
        #expect(try f.changingCalls() == ["POST /v1/devices"])
    }

    @Test func noSlotLeftIsAPermanentFailureNamingTheRenewal() throws {
        let f = try ProvisioningFixture(scenario: ["generate_devices": 0, "devices": (0 ..< 100).map { ["udid": ProvisioningFixture.udid(1000 + $0)] }])
        try f.enrolAndApprove(ProvisioningFixture.udid(5))
        let ran = try f.provisioner.runDue()
        let job = try #require(ran.first)
        #expect(job.state == .failed)
        #expect(job.lastError?.contains("renew") == true, "\(job.lastError ?? "")")
        #expect(try f.changingCalls().isEmpty)
    }

    @Test func aBatchWaitsWhileAnotherProcessRunsOne() throws {
        let f = try ProvisioningFixture(window: 3600)
        try f.enrolAndApprove(ProvisioningFixture.udid(12))
        try f.provisioner.runDue()
        let batch = try #require(try f.queue.jobs().first { $0.kind == "refresh-apps" })
        try f.queue.retry(id: batch.id, now: Date())
        // Another batch, running in a live process (pid 1 is always alive).
        try f.home.store.write { db in
            try db.query("""
                INSERT INTO jobs (kind, state, step, payload, claimed_by, claimed_at, created_at, updated_at)
                VALUES ('refresh-apps', 'running', 'profiles', '{"udids":[]}', 1, ?, ?, ?)
                """, [.text(Timestamp.string(Date())), .text(Timestamp.string(Date())), .text(Timestamp.string(Date()))])
        }
        #expect(try f.provisioner.runDue().isEmpty, "two batches never regenerate profiles at once")
        try f.home.store.write { db in try db.query("UPDATE jobs SET state = 'succeeded' WHERE claimed_by = 1") }
        #expect(try f.provisioner.runDue().map(\.id) == [batch.id])
    }

    @Test func cancelAndRetryRefuseJobsInTheWrongStateNamingThem() throws {
        let f = try ProvisioningFixture()
        try f.enrolAndApprove(ProvisioningFixture.udid(6))
        let job = try #require(try f.queue.jobs().first)
        #expect(throws: JobError.notRetryable(id: job.id, state: .queued)) { try f.queue.retry(id: job.id, now: Date()) }
        let cancelled = try f.queue.cancel(id: job.id, now: Date())
        #expect(cancelled.state == .cancelled)
        #expect(try f.provisioner.runDue().isEmpty, "a cancelled job does not run")
        #expect(throws: JobError.alreadyFinished(id: job.id, state: .cancelled)) { try f.queue.cancel(id: job.id, now: Date()) }
        #expect(throws: JobError.unknownJob(999)) { try f.queue.cancel(id: 999, now: Date()) }
        #expect(JobError.unknownJob(999).description.contains("betactl jobs"))
    }

    @Test func autoOnNamesEachMissingPieceAndOffStopsQueueing() throws {
        let roster = try RosterFixture()
        let auto = AutoProvisioning(home: roster.home)
        #expect(try auto.status().enabled == false, "off by default")
        do {
            try auto.turnOn()
            Issue.record("nothing is set up, so on must be refused")
        } catch let error as JobError {
            #expect(error.description.contains("App Store Connect key"))
            #expect(error.description.contains("code-signing identity"))
            #expect(error.description.contains("approval rule"))
        }
        let f = try ProvisioningFixture()
        try AutoProvisioning(home: f.home).turnOff()
        try f.enrolAndApprove(ProvisioningFixture.udid(8))
        #expect(try f.queue.jobs().isEmpty, "off: approvals queue nothing")
        #expect(throws: JobError.invalidWindow("90000")) { try AutoProvisioning(home: f.home).setWindow(90_000) }
    }
}
