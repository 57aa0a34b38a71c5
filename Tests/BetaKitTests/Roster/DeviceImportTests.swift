import AppleFormats
import Foundation
import Testing
@testable import BetaKit

@Suite struct DeviceImportTests {
    func entries(_ lines: [(Int, String)], platform: DevicePlatform? = .ios) -> [DeviceListEntry] {
        lines.map { DeviceListEntry(location: $0.0, identifier: RosterFixture.udid($0.0), name: $0.1, platform: platform) }
    }

    @Test func importIsAllOrNothingAndListsEveryLineOverTheLimit() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 98, tester: ann, start: 1000)
        let file = entries((2 ... 6).map { ($0, "QA iPhone \($0)") })
        #expect {
            try f.roster.importDevices(file, format: .tsv, file: "devices.txt", tester: nil, now: at("2026-11-05"))
        } throws: { error in
            guard let error = error as? DeviceImportError else { return false }
            return error.problems.map(\.location) == [4, 5, 6]
                && error.problems.allSatisfy { $0.message.contains("all 100 of 100 iPhone slots") }
                && error.description.hasPrefix("nothing was imported from devices.txt: 3 problems found")
                && error.category == .refused
        }
        #expect(try f.roster.devices().count == 98)
        #expect(try f.usage(.iphone, now: "2026-11-05").used == 98)
    }

    @Test func familiesComeFromThePlatformTheNameOrTheDefault() throws {
        let f = try RosterFixture()
        let mac = try DeviceIdentifier("A5B5CD50-14AB-5AF7-8B78-AB4751AB10A8")
        var list = entries([(2, "Ann's iPad"), (3, "NAME3"), (4, "Kitchen Apple TV")])
        list.append(DeviceListEntry(location: 5, identifier: mac, name: "Build box", platform: .mac))
        let report = try f.roster.importDevices(list, format: .tsv, file: "f", tester: nil, defaultFamily: .iphone, now: at("2026-11-05"))
        let families = Dictionary(uniqueKeysWithValues: try f.roster.devices().map { ($0.name, $0.family) })
        #expect(families == ["Ann's iPad": .ipad, "NAME3": .iphone, "Kitchen Apple TV": .tv, "Build box": .mac])
        #expect(report.assumedFamily == [RosterFixture.udid(3)])
        #expect(try f.roster.devices().allSatisfy { $0.testerID == nil })
    }

    @Test func reImportingLeavesRegisteredDevicesAloneAndAssignsATester() throws {
        let f = try RosterFixture()
        let bo = try f.addTester("Bo")
        let list = entries([(2, "One"), (3, "Two")])
        let first = try f.roster.importDevices(list, format: .tsv, file: "f", tester: "Bo", now: at("2026-11-05"))
        #expect(first.added.map(\.testerID) == [bo.id, bo.id])
        let second = try f.roster.importDevices(list, format: .tsv, file: "f", tester: nil, now: at("2026-11-06"))
        #expect(second.added.isEmpty)
        #expect(second.alreadyRegistered.count == 2)
        #expect(second.assumedFamily.isEmpty)
        #expect(try f.usage(.iphone, now: "2026-11-06").used == 2)
    }

    @Test func plistEntriesAreReportedAsEntriesNotLines() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 100, tester: ann, start: 1000)
        #expect {
            try f.roster.importDevices(entries([(1, "x")]), format: .deviceids, file: "d.deviceids", tester: nil, now: at("2026-11-05"))
        } throws: { error in
            (error as? DeviceImportError)?.problems.first?.description.hasPrefix("entry 1: ") == true
        }
    }
}
