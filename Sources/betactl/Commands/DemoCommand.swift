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

/// `betactl demo`: a seeded sandbox home to look around in.
enum DemoCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "demo", summary: "Create a seeded sandbox home and show what betactl manages.",
        options: [.value("--dir", "DIR", "Create the sandbox in DIR (default: a new temporary directory).")],
        discussion: "The sandbox never touches your real home; remove its directory when done.",
        group: .setup)

    static func run(_ invocation: Invocation) async throws {
        let directory = try invocation.arguments.value("--dir") ?? makeTemporaryDirectory(environment: invocation.environment)
        let home = try Home.initialise(at: directory, change: HomeSettingsChange(teamID: "DEMO123456", publicURL: HomeSettings.defaultPublicURL), now: invocation.now).home
        let roster = Roster(home: home)
        if try roster.testers().isEmpty {
            try DemoSeed.seed(roster, now: invocation.now)
        }
        let style = invocation.style
        invocation.print(style.bold("betactl demo sandbox") + " at \(directory)\n")
        for tester in try roster.testers() {
            invocation.print("  \(tester.name.padding(14)) \(tester.pageURL(publicURL: home.settings.publicURL))")
        }
        invocation.print("")
        let usage = try roster.usage(now: invocation.now)
        for family in usage.families where family.used > 0 {
            invocation.print("  \(family.family.displayName.padding(14)) \(family.used)/\(family.limit) slots used (\(family.removed) removed still count until \(family.renews))")
        }
        invocation.print("\nTry it:\n  betactl --home \(directory) devices\n  betactl --home \(directory) testers\n  betactl --home \(directory) export-devices")
    }

    static func makeTemporaryDirectory(environment: [String: String]) throws -> String {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("betactl-demo-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw FileSystemError(operation: "create a temporary directory in", path: base, errno: errno)
        }
        return String(cString: made)
    }
}

/// The people and devices in the demo sandbox. UDIDs are made up and unmistakably fake.
enum DemoSeed {
    static func seed(_ roster: Roster, now: Date) throws {
        let people: [(String, String, [String])] = [
            ("Ann Lee", "ann@example.com", ["qa"]), ("Bo Chen", "bo@example.com", ["qa", "design"]),
            ("Cy Okafor", "cy@example.com", ["design"]),
        ]
        var serial = 0
        func fakeUDID() throws -> DeviceIdentifier {
            serial += 1
            let tail = String(serial, radix: 16)
            return try DeviceIdentifier("00008030-" + String(repeating: "0", count: 16 - tail.count) + tail)
        }
        for (name, email, groups) in people {
            let tester = try roster.addTester(NewTester(name: name, email: email, groups: groups), now: now)
            _ = try roster.addDevice(NewDevice(identifier: try fakeUDID(), family: .iphone, model: "iPhone15,2"), tester: String(tester.id), now: now)
            _ = try roster.addDevice(NewDevice(identifier: try fakeUDID(), family: .ipad, model: "iPad13,4"), tester: String(tester.id), now: now)
        }
        let retired = try fakeUDID()
        _ = try roster.addDevice(NewDevice(identifier: retired, name: "Old test iPhone", family: .iphone), tester: "1", now: now)
        _ = try roster.removeDevice(retired, now: now)
    }
}
