#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import PosixIO

/// The people, devices and releases of the demo sandbox. The build is the project's own generated
/// fixture app (`Tests/Fixtures/formats/app`: team ABCDE12345, a made-up certificate, a profile valid
/// until 2099), embedded in the binary at build time (Sources/betactl/EmbedAssets.txt); its profile provisions the UDIDs below ending A01, B02 and C03. UDIDs are made up and
/// unmistakably fake.
///
/// Crashes come from the symbolication fixtures (`Tests/Fixtures/symbols`: the App crashing, and its
/// dSYM) and the jetsam fixture (`Tests/Fixtures/inspect/ips`), embedded the same way.
enum DemoSeed {
    static let inProfile = ["00008030-0000000000000A01", "00008101-0000000000000B02", "0000000000000000000000000000000000000c03"]

    static func seed(home: Home, now: Date) throws {
        let roster = Roster(home: home)
        let ann = try roster.addTester(NewTester(name: "Ann Lee", email: "ann@example.com", groups: ["qa"], devices: [
            NewDevice(identifier: try DeviceIdentifier(inProfile[0]), name: "Ann's iPhone", family: .iphone, model: "iPhone15,2"),
            NewDevice(identifier: try DeviceIdentifier(inProfile[1]), name: "Ann's iPad", family: .ipad, model: "iPad13,4"),
        ]), now: now)
        let bo = try roster.addTester(NewTester(name: "Bo Chen", email: "bo@example.com", groups: ["qa", "design"], devices: [
            // Registered after the build was made: not in its profile.
            NewDevice(identifier: try DeviceIdentifier("00008110-0000000000000D04"), name: "Bo's iPhone", family: .iphone, model: "iPhone16,1"),
        ]), now: now)
        let cy = try roster.addTester(NewTester(name: "Cy Okafor", email: "cy@example.com", groups: ["design"], devices: [
            NewDevice(identifier: try DeviceIdentifier(inProfile[2]), name: "Cy's old iPhone", family: .iphone, model: "iPhone10,3"),
        ]), now: now)
        let retired = try DeviceIdentifier("00008030-0000000000000E05")
        _ = try roster.addDevice(NewDevice(identifier: retired, name: "Old test iPhone", family: .iphone, model: "iPhone14,5"),
                                 tester: String(ann.id), now: now)
        _ = try roster.removeDevice(retired, now: now)

        let archive = Archive(home: home)
        let staging = try archive.makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        func file(_ name: String) throws -> String { try write(embedded("formats/app/" + name), to: staging + "/" + name) }
        // The ad hoc profile the builds are signed with, as a team imports it after registering devices.
        _ = try archive.importProfile(bytes: try embedded("formats/profiles/beta_adhoc.mobileprovision"), now: now.addingTimeInterval(-86400 * 4))
        let devices = try roster.devices(includeRemoved: false)
        let first = try archive.release(ReleaseRequest(path: try file("Beta.ipa"), dsymPaths: [try file("Beta.app.dSYM.zip"), try file("BetaWidget.appex.dSYM.zip")],
                                                       notes: "The first build. Withdrawn: it crashed on launch.", groups: []),
                                        devices: devices, now: now.addingTimeInterval(-86400 * 3))
        _ = try archive.revoke(id: first.release.id, now: now.addingTimeInterval(-86400))
        _ = try archive.release(ReleaseRequest(path: try file("Beta.xcarchive.zip"), notes: """
            What's new in this build:
            - The launch crash is fixed.
            - Sign-in remembers your email.

            Known issue: the widget shows yesterday's data. Details and feedback: https://example.com/beta/feedback
            """, groups: ["qa"]), devices: devices, now: now.addingTimeInterval(-3600))
        try seedCrashes(home: home, staging: staging, testers: (ann.id, bo.id), now: now)
        try seedDeviceRequest(home: home, tester: cy.id, now: now)
        // Bo's iPhone is not in the build's profile: the automatic flow is asked to provision it. The
        // demo has no App Store Connect key, so the job stops there and says what is missing.
        try AutoProvisioning(home: home).provision(try DeviceIdentifier("00008110-0000000000000D04"), now: now)
        // Added last, so none of the above is queued for it; nothing listens on the discard port.
        _ = try Webhooks(home: home).add(url: "http://127.0.0.1:9/demo-webhook", events: [.releasePublished, .crashNewGroup],
                                         format: .standard, allowPrivate: true, now: now)
    }

    /// The incident id the crash fixtures carry; each report made from them gets its own.
    static let fixtureIncident = "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6"
    /// The UUID of the crashing App in the fixtures (that of the dSYM the demo archives).
    static let fixtureAppUUID = "4c4c440b-5555-3144-a184-68d7aacd7c75"

    /// A symbolicated crash group with reports from Ann and Bo, a report of a build whose dSYM was
    /// never uploaded (waiting for symbols), and a low-memory (jetsam) report; all processed at once.
    static func seedCrashes(home: Home, staging: String, testers: (ann: Int64, bo: Int64), now: Date) throws {
        let dsym = staging + "/App.dSYM"
        _ = try write(embedded("symbols/arm64-dwarf4/App.dSYM/Contents/Info.plist"), to: dsym + "/Contents/Info.plist")
        _ = try write(embedded("symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App"), to: dsym + "/Contents/Resources/DWARF/App")
        _ = try Archive(home: home).addSymbols(paths: [dsym], now: now.addingTimeInterval(-7200))
        let crash = String(decoding: try embedded("symbols/crashes/App-309.ips"), as: UTF8.self)
        func report(_ number: Int, _ text: String) -> [UInt8] {
            Array(text.replacing(fixtureIncident, with: "00000000-0000-4000-8000-00000000DE\(number)0").utf8)
        }
        // An earlier build (41) whose dSYM was never uploaded: its report waits for symbols.
        let unsymbolicated = crash.replacing(fixtureAppUUID, with: "0d0d0d0d-1e1e-4f2f-8a3a-4b4b4b4b4b4b")
            .replacing("\"CFBundleVersion\": \"42\"", with: "\"CFBundleVersion\": \"41\"").replacing("\"build_version\": \"42\"", with: "\"build_version\": \"41\"")
        let submissions = [
            CrashSubmission(bytes: report(1, crash), source: .cli, fileName: "App-2024-05-06-101112.ips", testerID: testers.ann,
                            description: "It crashed when I opened the checksum screen."),
            CrashSubmission(bytes: report(2, crash), source: .cli, fileName: "App-2024-05-07-090000.ips", testerID: testers.bo,
                            description: nil),
            CrashSubmission(bytes: report(3, unsymbolicated), source: .cli, fileName: "App-2024-05-03-080000.ips", testerID: testers.bo,
                            description: "An older build crashed too."),
            CrashSubmission(bytes: try embedded("inspect/ips/JetsamEvent-2024-05-06-101112.ips"), source: .cli,
                            fileName: "JetsamEvent-2024-05-06-101112.ips", testerID: testers.ann, description: "The app vanished while scrolling."),
        ]
        let store = CrashStore(home: home)
        let receipts = try store.store(submissions, now: now.addingTimeInterval(-1800))
        let processor = try CrashProcessor(store: store)
        let ids = Set(receipts.map(\.reportID))
        while try processor.processNext(limit: 32, now: now, only: ids) > 0 {}
    }

    /// A device Cy asked to register from his tester page, waiting for approval (an unsigned
    /// reply, as a simulator sends; a real one is verified against Apple's device CA).
    static func seedDeviceRequest(home: Home, tester: Int64, now: Date) throws {
        let enrollment = DeviceEnrollment(home: home, acceptsUnverified: true)
        let challenge = try enrollment.issueChallenge(testerID: tester, now: now)
        let reply = PlistValue.dictionary([
            "CHALLENGE": .string(challenge), "UDID": .string("00008120-0000000000000F06"), "PRODUCT": .string("iPhone15,4"),
            "VERSION": .string("21E236"), "DEVICE_NAME": .string("Cy's new iPhone"),
        ])
        _ = try enrollment.receive(unsignedEnvelope(try reply.xmlBytes()), testerID: tester, now: now)
    }

    /// `plist` in a CMS SignedData envelope without signers (DER), the shape a reply arrives in.
    static func unsignedEnvelope(_ plist: [UInt8]) -> [UInt8] {
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            var length: [UInt8] = []
            var count = body.count
            while count > 0 { length.insert(UInt8(count & 0xFF), at: 0); count >>= 8 }
            return [tag] + (body.count < 0x80 ? [UInt8(body.count)] : [0x80 | UInt8(length.count)] + length) + body
        }
        let pkcs7: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
        let encapsulated = tlv(0x30, pkcs7 + [0x01] + tlv(0xA0, tlv(0x04, plist)))
        let signedData = tlv(0x30, [0x02, 0x01, 0x01, 0x31, 0x00] + encapsulated + [0x31, 0x00])
        return tlv(0x30, pkcs7 + [0x02] + tlv(0xA0, signedData))
    }

    /// The embedded copy of `Tests/Fixtures/<path>`.
    static func embedded(_ path: String) throws -> [UInt8] {
        guard let bytes = EmbeddedAssets.files["Tests/Fixtures/" + path] else {
            throw FileSystemError(operation: "find the embedded demo file", path: path, errno: Errno.noSuchFile)
        }
        return bytes
    }

    /// Writes `bytes` to `path`, making its folder; returns `path`.
    static func write(_ bytes: [UInt8], to path: String) throws -> String {
        if let slash = path.lastIndex(of: "/") {
            try FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
