import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct DeviceListTSVTests {
    let a = "0123456789abcdef0123456789abcdef01234567"
    let b = "00008030-001A2B3C4D5E6F70"
    let mac = "A5B5CD50-14AB-5AF7-8B78-AB4751AB10A8"

    @Test func readsHeaderCommentsBlankLinesAndCRLF() throws {
        let text = "\u{FEFF}Device ID\tDevice Name\tDevice Platform\r\n\r\n# QA team\r\n\(a)\tAnn's iPhone\tios\r\n\(mac)\tBuild Mac\tmac\r\n"
        let entries = try DeviceListTSV.parse(text)
        #expect(entries.map(\.identifier.value) == [a, mac])
        #expect(entries.map(\.location) == [4, 5])
        #expect(entries.map(\.platform) == [.ios, .mac])
        #expect(entries[0].name == "Ann's iPhone")
    }

    @Test func readsTheOlderTwoColumnHeader() throws {
        let entries = try DeviceListTSV.parse("Device ID\tDevice Name\n\(b)\tBo's iPhone\n")
        #expect(entries.count == 1)
        #expect(entries[0].platform == nil)
    }

    @Test func refusesSpaceSeparatedFilesSayingTabsAreRequired() {
        #expect {
            try DeviceListTSV.parse("Device ID Device Name Device Platform\n\(a) Ann ios\n")
        } throws: { error in
            let problems = (error as? DeviceListError)?.problems ?? []
            return problems.count == 2 && problems.allSatisfy { $0.message.contains("tab") }
                && problems.map(\.location) == [1, 2]
        }
    }

    @Test func listsEveryProblemWithItsLineNumber() {
        let text = """
            Device ID\tDevice Name\tDevice Platform
            \(a)\tOne\tios
            not-a-udid\tTwo\tios
            \(b)\t\tios
            \(mac)\tFour\twindows
            \(a)\tFive\tios
            \(b)
            """
        #expect {
            try DeviceListTSV.parse(text)
        } throws: { error in
            guard let problems = (error as? DeviceListError)?.problems else { return false }
            return problems.map(\.location) == [3, 4, 5, 6, 7]
                && problems[0].description.hasPrefix("line 3: \"not-a-udid\" is not a device UDID")
                && problems[1].message.contains("empty name")
                && problems[2].message.contains("\"windows\" is not ios or mac")
                && problems[3].message.contains("already listed on line 2")
                && problems[4].message.contains("has no name")
        }
    }

    @Test func writesAppleExactHeaderAndRoundTrips() throws {
        let devices: [(identifier: DeviceIdentifier, name: String, platform: DevicePlatform)] = [
            (try DeviceIdentifier(a), "Ann\tiPhone", .ios), (try DeviceIdentifier(mac), "Build Mac", .mac),
        ]
        let text = DeviceListTSV.write(devices)
        #expect(text.hasPrefix("Device ID\tDevice Name\tDevice Platform\n"))
        let back = try DeviceListTSV.parse(text)
        #expect(back.map(\.identifier) == devices.map(\.identifier))
        #expect(back.map(\.name) == ["Ann iPhone", "Build Mac"])
        #expect(back.map(\.platform) == [.ios, .mac])
    }
}

@Suite struct DeviceListPlistTests {
    @Test func roundTripsThroughTheDeviceIDsPlist() throws {
        let devices: [(identifier: DeviceIdentifier, name: String, platform: DevicePlatform)] = [
            (try DeviceIdentifier("00008030-001A2B3C4D5E6F70"), "Bo's iPhone", .ios),
        ]
        let data = try DeviceListPlist.write(devices)
        #expect(DeviceListPlist.looksLikePlist(Array(data)))
        #expect(String(decoding: data, as: UTF8.self).contains("<key>Device UDIDs</key>"))
        let back = try DeviceListPlist.parse(data)
        #expect(back.map(\.identifier.value) == ["00008030-001A2B3C4D5E6F70"])
        #expect(back[0].name == "Bo's iPhone")
        #expect(back[0].platform == .ios)
    }

    @Test func reportsBadEntriesByNumberAndGarbageAsAWholeFileProblem() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Device UDIDs</key><array>
            <dict><key>deviceIdentifier</key><string>00008030-001A2B3C4D5E6F70</string><key>deviceName</key><string>A</string></dict>
            <dict><key>deviceIdentifier</key><string>nope</string><key>deviceName</key><string>B</string></dict>
            <dict><key>deviceName</key><string>C</string></dict>
            </array></dict></plist>
            """
        #expect {
            try DeviceListPlist.parse(Data(plist.utf8))
        } throws: { error in
            let problems = (error as? DeviceListError)?.problems ?? []
            return problems.map(\.description).map { String($0.prefix(8)) } == ["entry 2:", "entry 3:"]
        }
        #expect(throws: DeviceListError.self) { try DeviceListPlist.parse(Data("<plist><array/></plist>".utf8)) }
        #expect(throws: DeviceListError.self) { try DeviceListPlist.parse(Data([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0xff])) }
    }

    @Test func writtenFilesAreReadByFoundationAsTheSameList() throws {
        let data = try DeviceListPlist.write([
            (try DeviceIdentifier("00008030-001A2B3C4D5E6F70"), "Bo's <iPhone> & co", .ios),
            (try DeviceIdentifier("12345678-90AB-CDEF-1234-567890ABCDEF"), "Mac mini", .mac),
        ])
        let device: (String, String, String) -> PlistValue = {
            .dictionary(["deviceIdentifier": .string($0), "deviceName": .string($1), "devicePlatform": .string($2)])
        }
        #expect(try FoundationPlistOracle.parse(Array(data)) == .dictionary(["Device UDIDs": .array([
            device("00008030-001A2B3C4D5E6F70", "Bo's <iPhone> & co", "ios"),
            device("12345678-90AB-CDEF-1234-567890ABCDEF", "Mac mini", "mac"),
        ])]))
    }

    @Test(arguments: [
        ("<plist><array/></plist>", "the property list holds an array, not a dictionary with a \"Device UDIDs\" array"),
        ("<plist><dict/></plist>", "the property list has no \"Device UDIDs\" array"),
        ("<plist><dict><key>Device UDIDs</key><string>x</string></dict></plist>",
         "\"Device UDIDs\" in the property list is a string, not an array of dictionaries"),
        ("<plist><dict><key>Device UDIDs</key><array></dict></plist>", "the XML property list (58 bytes) cannot be parsed: at byte 43, expected </array> but found </dict>"),
    ])
    func wholeFileProblemsSayWhatStandsWhereTheDeviceArrayShouldBe(plist: String, start: String) {
        #expect {
            try DeviceListPlist.parse(Data(plist.utf8))
        } throws: { error in
            let problems = (error as? DeviceListError)?.problems ?? []
            return problems.count == 1 && problems[0].location == nil && problems[0].message.hasPrefix(start)
                && problems[0].message.hasSuffix("; export it again from the developer portal or betactl")
        }
    }

    @Test func entriesOfTheWrongKindAreReportedByNumberWithTheOthers() {
        let plist = """
            <plist version="1.0"><dict><key>Device UDIDs</key><array>
            <string>00008030-001A2B3C4D5E6F70</string>
            <dict><key>deviceIdentifier</key><integer>7</integer><key>deviceName</key><string>B</string></dict>
            <dict><key>deviceIdentifier</key><string>00008030-001A2B3C4D5E6F71</string><key>deviceName</key><true/></dict>
            <dict><key>deviceIdentifier</key><string>00008030-001A2B3C4D5E6F72</string><key>deviceName</key><string>D</string></dict>
            </array></dict></plist>
            """
        #expect {
            try DeviceListPlist.parse(Data(plist.utf8))
        } throws: { error in
            let problems = (error as? DeviceListError)?.problems.map(\.description) ?? []
            return problems == [
                "entry 1: is a string, not a dictionary with deviceIdentifier, deviceName and devicePlatform strings",
                "entry 2: deviceIdentifier is an integer, not a string",
                "entry 3: deviceName is a boolean, not a string",
            ]
        }
    }
}

@Suite(.enabled(if: SharedFixtures.available)) struct SharedDeviceFileTests {
    @Test(arguments: [
        ("devices_tsv_fastlane_devices-list-with-comments.txt", 3),
        ("devices_tsv_fastlane_devices-list-with-platform.txt", 4),
        ("devices_tsv_sync_devices.txt", 4),
    ])
    func fastlaneAndPluginTextFilesParse(file: String, count: Int) throws {
        let text = String(decoding: try SharedFixtures.data("devices/\(file)"), as: UTF8.self)
        let entries = try DeviceListTSV.parse(text)
        #expect(entries.count == count)
    }

    @Test func theDeviceIDsPlistParsesWithAllThreeUDIDForms() throws {
        let entries = try DeviceListPlist.parse(try SharedFixtures.data("devices/devices_plist_sync_devices.deviceids"))
        #expect(Set(entries.map(\.identifier.form)) == [.legacy, .modern, .uuid])
        #expect(entries.filter { $0.platform == .mac }.count == 2)
    }

    @Test func theHyphenFixtureIsRefusedBecauseItsUDIDHasOnly24Characters() throws {
        // fastlane's fixture uses a made-up "A1234567-012345678901234": 8 + 15 digits, not Apple's 8 + 16.
        let text = String(decoding: try SharedFixtures.data("devices/devices_tsv_fastlane_devices-list-with-hyphen.txt"), as: UTF8.self)
        #expect {
            try DeviceListTSV.parse(text)
        } throws: { error in
            let problems = (error as? DeviceListError)?.problems ?? []
            return problems.count == 1 && problems[0].location == 2 && problems[0].message.contains("it has 24 characters")
        }
    }
}
