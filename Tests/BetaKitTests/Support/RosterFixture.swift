import AppleFormats
import Foundation
@testable import BetaKit
import TestSupport

/// A fresh home with a membership renewing on 2027-03-01, and helpers to fill it.
struct RosterFixture {
    let directory: TemporaryDirectory
    let home: Home
    var roster: Roster { Roster(home: home) }

    init(renewal: String? = "2027-03-01", created: String = "2026-06-01") throws {
        directory = try TemporaryDirectory()
        home = try Home.initialise(at: directory.child("home"),
                                   change: HomeSettingsChange(membershipRenewal: renewal.flatMap(CalendarDate.init(iso:))),
                                   now: at(created)).home
    }

    /// A valid 25-character UDID unique to `number` (and `prefix`, to keep sets apart).
    static func udid(_ number: Int, prefix: String = "00008030") -> DeviceIdentifier {
        let tail = String(number, radix: 16)
        // The literal form is valid by construction; a failure here is a bug in the test.
        return try! DeviceIdentifier(prefix + "-" + String(repeating: "0", count: 16 - tail.count) + tail)
    }

    @discardableResult
    func addTester(_ name: String, email: String? = nil, now: String = "2026-11-01") throws -> Tester {
        try roster.addTester(NewTester(name: name, email: email), now: at(now))
    }

    func fill(_ family: DeviceFamily, count: Int, tester: Tester, start: Int = 0, now: String = "2026-11-01") throws {
        for index in start ..< start + count {
            _ = try roster.addDevice(NewDevice(identifier: Self.udid(index), family: family), tester: String(tester.id), now: at(now))
        }
    }

    func usage(_ family: DeviceFamily, now: String) throws -> FamilyUsage {
        let all = try roster.usage(now: at(now))
        return all.families.first { $0.family == family }!
    }
}
