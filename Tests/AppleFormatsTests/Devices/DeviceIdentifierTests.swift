import Testing
@testable import AppleFormats

@Suite struct DeviceIdentifierTests {
    @Test func acceptsTheLegacyFortyHexFormAndLowercasesIt() throws {
        let udid = try DeviceIdentifier("0123456789ABCDEF0123456789abcdef01234567")
        #expect(udid.form == .legacy)
        #expect(udid.value == "0123456789abcdef0123456789abcdef01234567")
    }

    @Test func acceptsTheTwentyFiveCharacterFormAndUppercasesIt() throws {
        let udid = try DeviceIdentifier("00008030-001a2b3c4d5e6f70")
        #expect(udid.form == .modern)
        #expect(udid.value == "00008030-001A2B3C4D5E6F70")
    }

    @Test func acceptsTheMacUUIDFormAndUppercasesIt() throws {
        let udid = try DeviceIdentifier("a5b5cd50-14ab-5af7-8b78-ab4751ab10a8")
        #expect(udid.form == .uuid)
        #expect(udid.value == "A5B5CD50-14AB-5AF7-8B78-AB4751AB10A8")
    }

    @Test func differentCaseGivesTheSameIdentifier() throws {
        #expect(try DeviceIdentifier("00008030-001A2B3C4D5E6F70") == DeviceIdentifier("00008030-001a2b3c4d5e6f70"))
        #expect(try DeviceIdentifier("  00008030-001A2B3C4D5E6F70\t") == DeviceIdentifier("00008030-001A2B3C4D5E6F70"))
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("A1234567-012345678901234", "it has 24 characters"),
        ("0123456789abcdef0123456789abcdef0123456", "it has 39 characters"),
        ("0123456789abcdef0123456789abcdef0123456g", "it contains \"g\", which is not a hex digit"),
        ("0000803-0001A2B3C4D5E6F70", "its dashes are in the wrong places"),
        ("00008030001A2B3C4D5E6F70-", "its dashes are in the wrong places"),
        ("A5B5CD50-14AB5-AF7-8B78-AB4751AB10A8", "its dashes are in the wrong places"),
        ("00008030 001A2B3C4D5E6F70", "it contains \" \", which is not a hex digit"),
    ])
    func refusesAnythingElseNamingTheProblemAndTheAcceptedForms(input: String, reason: String) {
        #expect {
            try DeviceIdentifier(input)
        } throws: { error in
            guard let error = error as? DeviceIdentifierError else { return false }
            return error.reason == reason && error.description.contains("\"\(input)\"")
                && error.description.contains("40 hex digits") && error.description.contains("36-character UUID")
        }
    }
}

@Suite struct DeviceFamilyTests {
    @Test(arguments: [
        ("iPhone15,2", DeviceFamily.iphone), ("iPad13,4", .ipad), ("iPod9,1", .ipod), ("Watch6,1", .watch),
        ("AppleTV11,1", .tv), ("Mac14,2", .mac), ("MacBookPro18,1", .mac), ("iMac21,1", .mac), ("Macmini9,1", .mac),
        ("RealityDevice14,1", .vision),
    ])
    func infersTheFamilyFromAModelCode(code: String, family: DeviceFamily) {
        #expect(DeviceFamily(modelCode: code) == family)
    }

    @Test(arguments: ["iPhone", "iPhone15", "iPhone15,", "Pixel7,1", "iphone15,2", "iPhone15,2a", ""])
    func rejectsMalformedOrUnknownModelCodes(code: String) {
        #expect(DeviceFamily(modelCode: code) == nil)
    }

    @Test func uploadPlatformIsMacOnlyForMacs() {
        #expect(DeviceFamily.allCases.filter { $0.uploadPlatform == .mac } == [.mac])
    }

    @Test func infersFamiliesNamedInFreeText() {
        #expect(DeviceFamily(inferringFromName: "Ann's iPad mini") == .ipad)
        #expect(DeviceFamily(inferringFromName: "QA iPhone 15") == .iphone)
        #expect(DeviceFamily(inferringFromName: "Living room Apple TV") == .tv)
        #expect(DeviceFamily(inferringFromName: "NAME1") == nil)
    }
}
