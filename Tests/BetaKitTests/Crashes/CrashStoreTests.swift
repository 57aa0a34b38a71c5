import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct CrashStoreTests {
    @Test func sendingTheSameReportTwiceStoresItOnceAndKeepsBothUploads() throws {
        let fixture = try CrashFixture()
        let bytes = try CrashFixture.report("App-309.ips")
        let first = try fixture.submit([bytes])
        let second = try fixture.submit([bytes], source: .page)
        #expect(first[0].duplicate == false)
        #expect(second[0].duplicate == true)
        #expect(first[0].reportID == second[0].reportID)
        #expect(first[0].sha256 == SHA256.hash(bytes).hex)
        let record = try fixture.store.report(id: first[0].reportID)
        #expect(record.uploadCount == 2)
        #expect(try fixture.store.uploads(of: record.id).map(\.source) == [.raw, .page])
        #expect(try fixture.store.rawBytes(of: record.id) == bytes)
        #expect(fixture.blobFiles().count == 1)
        #expect(try fixture.store.reports().count == 1)
    }

    /// A tester's form sends the file as it is, HockeySDK's multipart adds a CRLF, KSCrash and text
    /// reports carry their own ids: the same crash is one report however it arrives.
    @Test func theSameCrashFramedDifferentlyIsOneReportWithAnotherUpload() throws {
        let fixture = try CrashFixture()
        let bytes = try CrashFixture.report("App-309.ips")
        let first = try fixture.submit([bytes], source: .page)[0]
        let second = try fixture.submit([bytes + Array("\r\n".utf8)])[0]
        #expect(!first.duplicate && second.duplicate)
        #expect(second.reportID == first.reportID)
        #expect(second.sha256 == first.sha256, "the receipt names the stored report's bytes")
        let record = try fixture.store.report(id: first.reportID)
        #expect(record.uploadCount == 2)
        #expect(try fixture.store.uploads(of: record.id).map(\.source) == [.page, .raw])
        #expect(try fixture.store.rawBytes(of: record.id) == bytes, "the first arrival's bytes are kept")
        #expect(fixture.blobFiles().count == 1, "the second arrival keeps no bytes of its own")

        // Inside one batch too, and another incident is another report.
        let text = try CrashFixture.report("App-legacy.crash")
        let batch = try fixture.submit([CrashIncidents.renumbered(text, 7), CrashIncidents.renumbered(text, 7) + Array("\n\n".utf8), CrashIncidents.renumbered(bytes, 8)])
        #expect(batch.map(\.duplicate) == [false, true, false])
        #expect(batch[0].reportID == batch[1].reportID && batch[2].reportID != first.reportID && batch[2].reportID != batch[0].reportID)
        #expect(try fixture.store.reports().count == 3)
        #expect(fixture.blobFiles().count == 3)
    }

    @Test func anUnreadableCopyDoesNotAbsorbALaterReadableReportOfTheSameIncident() throws {
        let fixture = try CrashFixture()
        let bytes = try CrashFixture.report("App-309.ips")
        // The same incident, but the body cut short: stored, then found unreadable.
        let cut = Array(bytes.prefix(bytes.count * 2 / 3))
        let first = try fixture.submit([cut])[0]
        _ = try fixture.process()
        #expect(try fixture.store.report(id: first.reportID).status == .unreadable)
        let whole = try fixture.submit([bytes])[0]
        #expect(!whole.duplicate && whole.reportID != first.reportID, "the readable copy is a report of its own")
        _ = try fixture.process()
        #expect(try fixture.store.report(id: whole.reportID).status != .unreadable)
        // Later copies of that incident go to the readable report.
        let again = try fixture.submit([bytes + Array("\r\n".utf8)])[0]
        #expect(again.duplicate && again.reportID == whole.reportID)
    }

    @Test func aReportWithoutAnIdentityIsKeptByItsBytes() throws {
        let fixture = try CrashFixture()
        let text = String(decoding: try CrashFixture.report("App-legacy.crash"), as: UTF8.self)
            .replacingOccurrences(of: "Incident Identifier:", with: "Incident Note:")
        let first = try fixture.submit([Array(text.utf8)])[0]
        let other = try fixture.submit([Array((text + "\n").utf8)])[0]
        let again = try fixture.submit([Array(text.utf8)])[0]
        #expect(!first.duplicate && !other.duplicate && other.reportID != first.reportID)
        #expect(again.duplicate && again.reportID == first.reportID)
    }

    @Test func duplicatesInsideOneBatchAreOneReport() throws {
        let fixture = try CrashFixture()
        let bytes = try CrashFixture.report("App-309.ips")
        let receipts = try fixture.submit([bytes, bytes, CrashIncidents.renumbered(try CrashFixture.report("App-109.ips"), 1)])
        #expect(receipts.map(\.duplicate) == [false, true, false])
        #expect(receipts[0].reportID == receipts[1].reportID)
        #expect(try fixture.store.reports().count == 2)
    }

    @Test func aBatchWithAnOversizedOrEmptyReportStoresNothing() throws {
        let fixture = try CrashFixture()
        let good = try CrashFixture.report("App-309.ips")
        #expect(throws: CrashError.tooLarge(size: 5000, limit: 4096)) {
            try fixture.store.store([CrashSubmission(bytes: good, source: .raw), CrashSubmission(bytes: [UInt8](repeating: 0x41, count: 5000), source: .raw)],
                                    now: CrashFixture.now, maxReportBytes: 4096)
        }
        #expect(throws: CrashError.empty(name: "empty.ips")) {
            try fixture.store.store([CrashSubmission(bytes: [], source: .raw, fileName: "empty.ips")], now: CrashFixture.now)
        }
        #expect(try fixture.store.reports().isEmpty)
        #expect(try fixture.store.queuedCount() == 0)
        #expect(fixture.blobFiles().isEmpty)
    }

    @Test func aReportWaitsForItsDSYMAndIsSymbolicatedAndRegroupedWhenItArrives() throws {
        let fixture = try CrashFixture()
        let id = try fixture.submit([try CrashFixture.report("App-309.ips")])[0].reportID
        #expect(try fixture.store.report(id: id).status == .queued)
        #expect(try fixture.process() == 1)
        let partial = try fixture.store.report(id: id)
        #expect(partial.status == .partial)
        #expect(partial.missingSymbols == [CrashMissingImage(uuid: CrashFixture.appUUID, architecture: "arm64", name: "App")])
        let oldGroup = try #require(partial.signatureKey)
        #expect(try fixture.store.groups().map(\.signatureKey) == [oldGroup])

        try fixture.addAppSymbols()
        #expect(try fixture.store.queuedCount() == 1, "add-symbols queues the report that lacked the UUID")
        #expect(try fixture.process() == 1)
        let done = try fixture.store.report(id: id)
        #expect(done.status == .symbolicated)
        #expect(done.missingSymbols.isEmpty)
        #expect(done.summary == "EXC_BAD_ACCESS (SIGSEGV) | clamp_digit | parse_pair | main")
        let groups = try fixture.store.groups()
        #expect(groups.map(\.signatureKey) == [try #require(done.signatureKey)])
        #expect(done.signatureKey != oldGroup, "the group without symbols is gone")
        #expect(groups[0].count == 1 && groups[0].representativeID == id)
    }

    /// The frames the store symbolicates are llvm-symbolizer's (crashes/expected-frames.tsv).
    @Test func storedReportsSymbolicateToLLVMSymbolizersFrames() throws {
        let fixture = try CrashFixture()
        try fixture.addAppSymbols()
        let text = try String(contentsOfFile: SymbolFixtures.path("crashes/expected-frames.tsv"), encoding: .utf8)
        var expected: [String: [SymbolFixtures.Frame]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            expected["\(f[0])/\(f[1])", default: []].append(SymbolFixtures.Frame(function: f[3], file: f[4], line: Int(f[5]) ?? 0, column: Int(f[6]) ?? 0))
        }
        for name in ["App-309.ips", "App-109.ips", "App-legacy.crash"] {
            let id = try fixture.submit([try CrashFixture.report(name)])[0].reportID
            try fixture.process()
            #expect(try fixture.store.report(id: id).status == .symbolicated, "\(name)")
            let result = try #require(try fixture.store.symbolicatedReport(id: id))
            var checked = 0
            for (t, thread) in result.threads.enumerated() {
                for frame in thread.frames where frame.image?.name == "App" {
                    guard let want = expected["\(t)/\(frame.frame.number)"] else { continue }
                    let got = frame.locations.map { SymbolFixtures.Frame(function: $0.rawFunction ?? "??", file: $0.file ?? "??", line: $0.line, column: $0.column) }
                    #expect(got == want, "\(name) thread \(t) frame \(frame.frame.number)")
                    checked += 1
                }
            }
            #expect(checked >= 5, "\(name)")
        }
    }

    @Test func lowMemoryOtherAndUnreadableReportsAreKeptWithWhatTheyAre() throws {
        let fixture = try CrashFixture()
        let jetsam = try CrashFixture.inspect("ips/JetsamEvent-2024-05-06-101112.ips")
        let cpu = try CrashFixture.inspect("ips/App.cpu_resource-2024-05-06-101112.ips")
        var truncated = try CrashFixture.report("App-309.ips")
        truncated.removeLast(truncated.count / 2)
        let receipts = try fixture.submit([jetsam, cpu, truncated])
        try fixture.process()
        let low = try fixture.store.report(id: receipts[0].reportID)
        #expect(low.status == .lowMemory)
        #expect(low.summary?.contains("largest") == true)
        #expect(low.signatureKey == nil)
        let memory = try #require(try fixture.store.lowMemoryReport(id: low.id))
        #expect(!memory.processes.isEmpty)
        let other = try fixture.store.report(id: receipts[1].reportID)
        #expect(other.status == .other)
        #expect(other.summary?.hasPrefix("bug_type ") == true)
        let broken = try fixture.store.report(id: receipts[2].reportID)
        #expect(broken.status == .unreadable)
        #expect(broken.error?.contains("cannot be read") == true)
        #expect(try fixture.store.symbolicatedReport(id: broken.id) == nil)
        #expect(try fixture.store.queuedCount() == 0)
    }

    @Test func kscrashAndHockeyAppReportsAreCrashes() throws {
        let fixture = try CrashFixture()
        let ks = try CrashFixture.inspect("kscrash/kscrash-3.4.0-microseconds.json")
        let hockey = try CrashFixture.inspect("hockeyapp/crash-upload.xml")
        let receipts = try fixture.submit([ks, hockey])
        try fixture.process()
        for receipt in receipts {
            let record = try fixture.store.report(id: receipt.reportID)
            #expect([.symbolicated, .partial].contains(record.status), "\(record)")
            #expect(record.signatureKey != nil)
        }
        #expect(try fixture.store.report(id: receipts[0].reportID).format == "kscrash")
    }

    @Test func reportsAreLinkedToTheTesterByEmailAndToTheirDeviceByModel() throws {
        let fixture = try CrashFixture()
        let ann = try fixture.roster.addTester("Ann Lee", email: "ann@example.com")
        _ = try fixture.roster.roster.addDevice(NewDevice(identifier: try DeviceIdentifier("00008030-0000000000000A01"), family: .iphone, model: "iPhone14,5"),
                                                tester: String(ann.id), now: CrashFixture.now)
        let id = try fixture.submit([try CrashFixture.report("App-309.ips")], source: .hockeyApp, userID: "ANN@example.com")[0].reportID
        try fixture.process()
        let record = try fixture.store.report(id: id)
        #expect(record.testerID == ann.id)
        #expect(record.testerName == "Ann Lee")
        #expect(record.deviceUDID == "00008030-0000000000000A01")
        #expect(try fixture.store.reports(CrashFilter(testerID: ann.id)).map(\.id) == [id])
        #expect(try fixture.store.groups(testerID: ann.id).first?.testerIDs == [ann.id])
    }

    /// Two of Ann's devices are iPhone14,5: the model alone does not tell which sent the report,
    /// the OS build their enrolment reported does; another copy of the same incident, sent
    /// without a tester, is another upload of the same report and keeps its device.
    @Test func theDeviceIsToldByModelThenOSBuildThenIncident() throws {
        let fixture = try CrashFixture()
        let ann = try fixture.roster.addTester("Ann Lee", email: "ann@example.com")
        let udids = ["00008030-0000000000000A01", "00008030-0000000000000A02", "00008030-0000000000000A03"]
        for (udid, model) in zip(udids, ["iPhone14,5", "iPhone14,5", "iPhone15,2"]) {
            _ = try fixture.roster.roster.addDevice(NewDevice(identifier: try DeviceIdentifier(udid), family: .iphone, model: model),
                                                    tester: String(ann.id), now: CrashFixture.now)
        }
        let report = try CrashFixture.report("App-309.ips")  // iPhone14,5, "iPhone OS 17.4.1 (21E236)"
        let first = try fixture.submit([report], source: .page, testerID: ann.id)[0].reportID
        try fixture.process()
        #expect(try fixture.store.report(id: first).deviceUDID == nil, "two devices of that model, neither enrolled")

        try fixture.home.store.write { db in
            for (udid, build) in [(udids[0], "21D61"), (udids[1], "21E236")] {
                try db.query("INSERT INTO enrolled_devices (udid, tester_id, product, os_build, enrolled_at) VALUES (?, ?, 'iPhone14,5', ?, ?)",
                             [.text(udid), .integer(ann.id), .text(build), .text(Timestamp.string(CrashFixture.now))])
            }
        }
        let second = try fixture.submit([CrashIncidents.renumbered(report, 1)], source: .page, testerID: ann.id)[0].reportID
        try fixture.process()
        #expect(try fixture.store.report(id: second).deviceUDID == udids[1], "the device whose enrolment reported 21E236")

        // The same incident again, from an SDK without a user: another upload of that report,
        // which keeps its tester and device.
        let third = try fixture.submit([CrashIncidents.renumbered(report, 1) + Array("\r\n".utf8)], source: .hockeyApp)[0]
        #expect(third.duplicate && third.reportID == second)
        try fixture.process()
        let record = try fixture.store.report(id: second)
        #expect(record.testerID == ann.id)
        #expect(record.deviceUDID == udids[1])
        #expect(record.uploadCount == 2)
        #expect(CrashStore.osBuild("iPhone OS 17.4.1 (21E236)") == "21E236")
        #expect(CrashStore.osBuild("17.4.1") == nil)
    }

    @Test func aReleaseLinksTheReportsOfItsBuild() throws {
        let fixture = try CrashFixture()
        let archive = Archive(home: fixture.home)
        let app = { (name: String) in LocalFixtures.url("formats/app/\(name)").path }
        let release = try archive.release(ReleaseRequest(path: app("Beta.ipa"), dsymPaths: [app("Beta.app.dSYM.zip"), app("BetaWidget.appex.dSYM.zip")]),
                                          devices: [], now: FormatsFixtures.now).release
        let slice = try #require(try archive.slices(ofRelease: release.id).first { $0.kind == "app" && $0.architecture == "arm64" })
        let uuid = try #require(slice.uuid)
        // The App report, made a crash of Beta's executable.
        let text = String(decoding: try CrashFixture.report("App-309.ips"), as: UTF8.self)
            .replacingOccurrences(of: CrashFixture.appUUID.lowercased(), with: uuid.lowercased())
        let id = try fixture.submit([Array(text.utf8)])[0].reportID
        try fixture.process()
        #expect(try fixture.store.report(id: id).releaseID == release.id)
        #expect(try fixture.store.reports(CrashFilter(releaseID: release.id)).map(\.id) == [id])
        #expect(try fixture.store.groups().first?.releaseIDs == [release.id])
    }

    @Test func aClaimLeftByAKilledProcessIsTakenOver() throws {
        let fixture = try CrashFixture()
        let id = try fixture.submit([try CrashFixture.report("App-309.ips")])[0].reportID
        let dead = try ChildProcess("/bin/true", [])
        dead.wait()
        try fixture.home.store.write { db in
            try db.query("UPDATE crash_queue SET claimed_by = ?, claimed_at = ?, attempts = 1", [.integer(Int64(dead.processIdentifier)), .text(Timestamp.string(CrashFixture.now))])
        }
        #expect(try fixture.process() == 1)
        #expect(try fixture.store.report(id: id).status == .partial)
    }

    @Test func aReportThatKeepsStoppingTheProcessorEndsUnreadable() throws {
        let fixture = try CrashFixture()
        let id = try fixture.submit([try CrashFixture.report("App-309.ips")])[0].reportID
        try fixture.home.store.write { db in try db.query("UPDATE crash_queue SET attempts = ?", [.integer(CrashStore.maxAttempts)]) }
        #expect(try fixture.process() == 1)
        let record = try fixture.store.report(id: id)
        #expect(record.status == .unreadable)
        #expect(record.error?.contains("stopped 3 times") == true)
        #expect(try fixture.store.rawBytes(of: id) == (try CrashFixture.report("App-309.ips")), "the raw report is kept")
    }

    @Test func aRequeueDuringProcessingIsNotLost() throws {
        let fixture = try CrashFixture()
        let id = try fixture.submit([try CrashFixture.report("App-309.ips")])[0].reportID
        let items = try fixture.store.claim(limit: 8, now: CrashFixture.now)
        #expect(items.map(\.reportID) == [id])
        try fixture.home.store.write { db in try CrashStore.enqueue([id], reason: "symbols", now: CrashFixture.now, db: db) }
        try fixture.home.store.write { db in try CrashStore.complete(items[0], db: db) }
        #expect(try fixture.store.queuedCount() == 1, "the newer request stays")
        #expect(try fixture.process() == 1)
        #expect(try fixture.store.queuedCount() == 0)
    }

    @Test func ingestKeysAreFoundByTheirTextUntilRevoked() throws {
        let fixture = try CrashFixture()
        let key = try fixture.store.createKey(bundleID: "com.example.fixture", now: CrashFixture.now)
        #expect(key.key.count == 43)
        #expect(try fixture.store.activeKey(key.key)?.id == key.id)
        #expect(try fixture.store.activeKey("nope") == nil)
        #expect(try fixture.store.activeKey(String(repeating: "x", count: 500)) == nil)
        try fixture.store.revokeKey(String(key.id), now: CrashFixture.now)
        #expect(try fixture.store.activeKey(key.key) == nil)
        #expect(try fixture.store.keys().first?.revokedAt != nil)
        #expect(throws: CrashError.invalidBundleID("not a bundle id")) { try fixture.store.createKey(bundleID: "not a bundle id", now: CrashFixture.now) }
        #expect(throws: CrashError.unknownKey("7")) { try fixture.store.revokeKey("7", now: CrashFixture.now) }
    }

    @Test func intakeRecognisesReportsAndTurnsAwayOtherFiles() throws {
        #expect(CrashStore.recognize(try CrashFixture.report("App-309.ips")).accepted)
        #expect(CrashStore.recognize(try CrashFixture.inspect("ips/JetsamEvent-2024-05-06-101112.ips")).accepted)
        #expect(CrashStore.recognize(try CrashFixture.inspect("kscrash/kscrash-4.0.0.json")).accepted)
        let png = CrashStore.recognize([UInt8](try LocalFixtures.data("formats/icons/cgbi_7x5_multiIDAT.png")))
        #expect(!png.accepted)
        #expect(png.evidence.contains("PNG"))
        #expect(!CrashStore.recognize(Array("hello".utf8)).accepted)
    }
}
