#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats
import BetaKit

/// The people, devices and releases of the demo sandbox. The build is the project's own generated
/// fixture app (`Tests/Fixtures/formats/app`: team ABCDE12345, a made-up certificate, a profile valid
/// until 2099), embedded in the binary at build time (Sources/betactl/EmbedAssets.txt); its profile provisions the UDIDs below ending A01, B02 and C03. UDIDs are made up and
/// unmistakably fake.
enum DemoSeed {
    static let inProfile = ["00008030-0000000000000A01", "00008101-0000000000000B02", "0000000000000000000000000000000000000c03"]

    static func seed(home: Home, now: Date) throws {
        let roster = Roster(home: home)
        let ann = try roster.addTester(NewTester(name: "Ann Lee", email: "ann@example.com", groups: ["qa"], devices: [
            NewDevice(identifier: try DeviceIdentifier(inProfile[0]), name: "Ann's iPhone", family: .iphone, model: "iPhone15,2"),
            NewDevice(identifier: try DeviceIdentifier(inProfile[1]), name: "Ann's iPad", family: .ipad, model: "iPad13,4"),
        ]), now: now)
        _ = try roster.addTester(NewTester(name: "Bo Chen", email: "bo@example.com", groups: ["qa", "design"], devices: [
            // Registered after the build was made: not in its profile.
            NewDevice(identifier: try DeviceIdentifier("00008110-0000000000000D04"), name: "Bo's iPhone", family: .iphone, model: "iPhone16,1"),
        ]), now: now)
        _ = try roster.addTester(NewTester(name: "Cy Okafor", email: "cy@example.com", groups: ["design"], devices: [
            NewDevice(identifier: try DeviceIdentifier(inProfile[2]), name: "Cy's old iPhone", family: .iphone, model: "iPhone10,3"),
        ]), now: now)
        let retired = try DeviceIdentifier("00008030-0000000000000E05")
        _ = try roster.addDevice(NewDevice(identifier: retired, name: "Old test iPhone", family: .iphone, model: "iPhone14,5"),
                                 tester: String(ann.id), now: now)
        _ = try roster.removeDevice(retired, now: now)

        let archive = Archive(home: home)
        let staging = try archive.makeStagingDirectory()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        func file(_ name: String) throws -> String {
            guard let bytes = EmbeddedAssets.files["Tests/Fixtures/formats/app/" + name] else { throw FileSystemError(operation: "find the embedded demo file", path: name, errno: ENOENT) }
            let path = staging + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
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
    }
}
