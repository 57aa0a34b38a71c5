import AppleFormats
import Foundation
import Testing
@testable import BetaKit

@Suite struct RosterTests {
    @Test func testersGetDistinctUnguessableURLSafeTokens() throws {
        let f = try RosterFixture()
        var tokens: Set<String> = []
        for index in 0 ..< 50 {
            let tester = try f.addTester("Tester \(index)")
            #expect(tester.token.count == 43)  // 256 bits in unpadded base64url
            #expect(tester.token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            tokens.insert(tester.token)
        }
        #expect(tokens.count == 50)
        let tester = try f.roster.tester(matching: "1")
        #expect(tester.pageURL(publicURL: f.home.settings.publicURL) == "http://127.0.0.1:8080/t/\(tester.token)")
    }

    @Test func base64URLEncodingMatchesKnownVectors() {
        #expect(InviteToken.base64URL(Array("f".utf8)) == "Zg")
        #expect(InviteToken.base64URL(Array("foob".utf8)) == "Zm9vYg")
        #expect(InviteToken.base64URL([0xfb, 0xff, 0xfe]) == "-__-")
        // A token-sized input (32 bytes, as make() draws): python3 -c "import base64;
        // print(base64.urlsafe_b64encode(bytes(range(0, 256, 8))).decode().rstrip('='))"
        #expect(InviteToken.base64URL(Array(stride(from: 0, to: 256, by: 8).map(UInt8.init))) == "AAgQGCAoMDhASFBYYGhweICIkJigqLC4wMjQ2ODo8Pg")
    }

    @Test func namesAreRequiredAndEmailsValidatedAndUnique() throws {
        let f = try RosterFixture()
        #expect(throws: RosterError.emptyName) { try f.addTester("   ") }
        for bad in ["ann", "ann@", "@example.com", "ann@example", "ann lee@example.com", "ann@ex..com", "a@b@c.com"] {
            #expect(throws: RosterError.invalidEmail(bad)) { try f.addTester("Ann", email: bad) }
        }
        let ann = try f.addTester("Ann", email: "ann@example.com")
        #expect(throws: RosterError.duplicateEmail("ANN@example.com", testerID: ann.id, testerName: "Ann")) {
            try f.addTester("Other Ann", email: "ANN@example.com")
        }
        _ = try f.roster.removeTester("ann@example.com", now: at("2026-11-02"))
        #expect(try f.addTester("New Ann", email: "ann@example.com").email == "ann@example.com")
    }

    @Test func testersAreFoundByIdEmailOrUniqueName() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann Lee", email: "ann@example.com")
        #expect(try f.roster.tester(matching: String(ann.id)).id == ann.id)
        #expect(try f.roster.tester(matching: "ANN@example.com").id == ann.id)
        #expect(try f.roster.tester(matching: "ann lee").id == ann.id)
        try f.addTester("Ann Lee")
        #expect(throws: RosterError.ambiguousTester("Ann Lee", ids: [1, 2])) { try f.roster.tester(matching: "Ann Lee") }
        #expect(throws: RosterError.testerNotFound("nobody")) { try f.roster.tester(matching: "nobody") }
    }

    @Test func aDeviceCannotBeRegisteredTwiceEvenUnderAnotherTester() throws {
        let f = try RosterFixture()
        try f.addTester("Ann")
        try f.addTester("Bo")
        let udid = RosterFixture.udid(1)
        _ = try f.roster.addDevice(NewDevice(identifier: udid, family: .iphone), tester: "Ann", now: at("2026-11-01"))
        #expect(throws: RosterError.deviceAlreadyRegistered(udid, testerName: "Ann")) {
            try f.roster.addDevice(NewDevice(identifier: udid, family: .iphone), tester: "Bo", now: at("2026-11-01"))
        }
        let lower = try DeviceIdentifier(udid.value.lowercased())
        #expect(throws: RosterError.self) {
            try f.roster.addDevice(NewDevice(identifier: lower, family: .iphone), tester: "Bo", now: at("2026-11-01"))
        }
    }

    @Test func removingATesterRemovesTheirDevicesWhichKeepCounting() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 3, tester: ann)
        let (removed, devices) = try f.roster.removeTester("Ann", now: at("2026-11-10"))
        #expect(removed.removedAt != nil)
        #expect(devices.count == 3)
        #expect(try f.roster.testers().isEmpty)
        #expect(try f.roster.devices().allSatisfy { $0.status == .removed && $0.testerName == "Ann" })
        let usage = try f.usage(.iphone, now: "2026-11-10")
        #expect(usage.used == 3)
        #expect(usage.removed == 3)
    }

    @Test func addTesterWithABadDeviceCreatesNothing() throws {
        let f = try RosterFixture()
        let ann = try f.addTester("Ann")
        try f.fill(.iphone, count: 1, tester: ann)
        let request = NewTester(name: "Bo", devices: [NewDevice(identifier: RosterFixture.udid(50), family: .ipad),
                                                       NewDevice(identifier: RosterFixture.udid(0), family: .iphone)])
        #expect(throws: RosterError.self) { try f.roster.addTester(request, now: at("2026-11-02")) }
        #expect(try f.roster.testers().map(\.name) == ["Ann"])
        #expect(try f.roster.devices().count == 1)
    }

    @Test func familyComesFromTheModelCodeOrTheFlag() throws {
        let udid = RosterFixture.udid(1)
        #expect(try NewDevice.family(model: "iPad13,4", family: nil, identifier: udid) == .ipad)
        #expect(try NewDevice.family(model: nil, family: .watch, identifier: udid) == .watch)
        #expect(throws: RosterError.familyRequired(udid)) { try NewDevice.family(model: nil, family: nil, identifier: udid) }
        #expect(throws: RosterError.unknownModel("Pixel7,1")) { try NewDevice.family(model: "Pixel7,1", family: nil, identifier: udid) }
        #expect(throws: RosterError.modelFamilyMismatch(model: "iPad13,4", inferred: .ipad, given: .iphone)) {
            try NewDevice.family(model: "iPad13,4", family: .iphone, identifier: udid)
        }
        let mac = try DeviceIdentifier("A5B5CD50-14AB-5AF7-8B78-AB4751AB10A8")
        #expect(try NewDevice.family(model: nil, family: nil, identifier: mac) == .mac)
    }
}
