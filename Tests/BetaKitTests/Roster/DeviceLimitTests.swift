import AppleFormats
import Foundation
import Testing
@testable import BetaKit

@Suite struct DeviceLimitTests {
    @Test func theHundredAndFirstIPhoneIsRefusedWhileIPadsStillAdd() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 100, tester: ann)
        let extra = RosterFixture.udid(500)
        #expect {
            try f.roster.addDevice(NewDevice(identifier: extra, family: .iphone), tester: "Ann", now: at("2026-11-02"))
        } throws: { error in
            guard case let .limitReached(udid, family, used, limit, removed, renews)? = error as? RosterError else { return false }
            let message = (error as? RosterError)?.description ?? ""
            return udid == extra && family == .iphone && used == 100 && limit == 100 && removed == 0
                && renews.description == "2027-03-01" && message.contains("iPhone") && message.contains("100")
                && message.contains("2027-03-01") && message.contains(extra.value)
        }
        let ipad = try f.roster.addDevice(NewDevice(identifier: RosterFixture.udid(501), family: .ipad), tester: "Ann", now: at("2026-11-02"))
        #expect(ipad.device.family == .ipad)
        #expect(try f.usage(.iphone, now: "2026-11-02").used == 100)
        #expect(try f.usage(.ipad, now: "2026-11-02").used == 1)
        #expect(try f.roster.devices().count == 101)
    }

    @Test func aRemovedDeviceStillCountsUntilTheYearRenews() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 100, tester: ann)
        _ = try f.roster.removeDevice(RosterFixture.udid(7), now: at("2026-12-01"))
        let usage = try f.usage(.iphone, now: "2026-12-01")
        #expect(usage.used == 100)
        #expect(usage.removed == 1)
        #expect {
            try f.roster.addDevice(NewDevice(identifier: RosterFixture.udid(600), family: .iphone), tester: "Ann", now: at("2026-12-02"))
        } throws: { error in
            (error as? RosterError)?.description.contains("1 removed device still counts until 2027-03-01") == true
        }
        // After renewal the removed device's slot comes back.
        let renewed = try f.usage(.iphone, now: "2027-03-01")
        #expect(renewed.used == 99)
        #expect(renewed.removed == 0)
        #expect(renewed.renews.description == "2028-03-01")
        _ = try f.roster.addDevice(NewDevice(identifier: RosterFixture.udid(600), family: .iphone), tester: "Ann", now: at("2027-03-01"))
        #expect(try f.usage(.iphone, now: "2027-03-02").used == 100)
    }

    @Test func reAddingADeviceRemovedThisYearTakesNoNewSlot() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 100, tester: ann)
        let udid = RosterFixture.udid(3)
        _ = try f.roster.removeDevice(udid, now: at("2026-12-01"))
        let again = try f.roster.addDevice(NewDevice(identifier: udid, family: .iphone), tester: "Ann", now: at("2026-12-05"))
        #expect(again.reusedSlot)
        #expect(again.device.status == .active)
        let usage = try f.usage(.iphone, now: "2026-12-05")
        #expect(usage.used == 100)
        #expect(usage.removed == 0)
    }

    @Test func aDeviceActiveAtRenewalAndRemovedLaterStillCountsInTheNewYear() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 2, tester: ann, now: "2026-11-01")
        _ = try f.roster.removeDevice(RosterFixture.udid(0), now: at("2026-12-01"))  // removed in the old year
        _ = try f.roster.removeDevice(RosterFixture.udid(1), now: at("2027-04-01"))  // active at renewal, removed after
        let usage = try f.usage(.iphone, now: "2027-04-02")
        #expect(usage.used == 1)
        #expect(usage.removed == 1)
    }

    @Test func changingFamilyOnReAddKeepsTheOldFamilysSlotTaken() throws {
        let f = try RosterFixture()
        try f.addTester("Ann")
        let udid = RosterFixture.udid(9)
        _ = try f.roster.addDevice(NewDevice(identifier: udid, family: .iphone), tester: "Ann", now: at("2026-11-01"))
        _ = try f.roster.removeDevice(udid, now: at("2026-11-02"))
        let readded = try f.roster.addDevice(NewDevice(identifier: udid, family: .ipad), tester: "Ann", now: at("2026-11-03"))
        #expect(!readded.reusedSlot)
        #expect(try f.usage(.iphone, now: "2026-11-03").used == 1)
        #expect(try f.usage(.iphone, now: "2026-11-03").removed == 1)
        #expect(try f.usage(.ipad, now: "2026-11-03").used == 1)
    }

    @Test func withoutARenewalDateTheYearRunsFromTheInitAnniversary() throws {
        let f = try RosterFixture(renewal: nil, created: "2026-06-01")
        let usage = try f.roster.usage(now: at("2026-11-21"))
        #expect(usage.year.isInferred)
        #expect(usage.year.start.description == "2026-06-01")
        #expect(usage.year.renews.description == "2027-06-01")
    }
}

extension DeviceLimitTests {
    @Test func refusalsNameTheFamilyWithItsArticle() throws {
        let udid = RosterFixture.udid(9)
        let renews = try #require(CalendarDate(iso: "2027-03-01"))
        let phone = RosterError.limitReached(udid, family: .iphone, used: 100, limit: 100, removedStillCounting: 0, renews: renews)
        #expect(phone.description.hasPrefix("device \(udid) is an iPhone: all 100 of 100 iPhone slots"))
        let watch = RosterError.limitReached(udid, family: .watch, used: 100, limit: 100, removedStillCounting: 3, renews: renews)
        #expect(watch.description.hasPrefix("device \(udid) is an Apple Watch: all 100 of 100 Apple Watch slots"))
        #expect(watch.description.contains("3 removed devices still count until 2027-03-01"))
        let mac = RosterError.limitReached(udid, family: .mac, used: 100, limit: 100, removedStillCounting: 0, renews: renews)
        #expect(mac.description.hasPrefix("device \(udid) is a Mac: "))
        #expect(RosterError.modelFamilyMismatch(model: "Mac14,2", inferred: .mac, given: .iphone).description
            == "model Mac14,2 is a Mac but --family says iphone; drop --family or fix the model code")
        #expect(RosterError.modelFamilyMismatch(model: "iPad13,4", inferred: .ipad, given: .iphone).description
            == "model iPad13,4 is an iPad but --family says iphone; drop --family or fix the model code")
    }
}
