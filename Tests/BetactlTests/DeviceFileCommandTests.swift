import Foundation
import Testing
import TestSupport

@Suite struct DeviceFileCommandTests {
    struct DevicesJSON: Decodable {
        struct Device: Decodable, Hashable {
            var udid: String
            var name: String
            var family: String
            var model: String?
            var tester: String?
            var status: String
            var added: String
        }
        struct Usage: Decodable {
            var used: Int
            var limit: Int
            var removed: Int
            var renews: String
        }
        var devices: [Device]
        var usage: [String: Usage]
    }

    func devices(_ cli: Betactl) throws -> DevicesJSON {
        try JSONDecoder().decode(DevicesJSON.self, from: Data(try cli.ok("devices", "--json").utf8))
    }

    @Test func devicesJSONHasTheDocumentedShape() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--membership-renewal", "2027-03-01")
        try cli.ok("add-tester", "Ann", "--email", "ann@example.com")
        try cli.ok("add-device", "Ann", "00008030-001A2B3C4D5E6F70", "--model", "iPhone15,2", "--name", "Ann's phone")
        try cli.ok("add-device", "ann@example.com", "0123456789abcdef0123456789abcdef01234567", "--family", "ipad")
        try cli.ok("remove-device", "0123456789ABCDEF0123456789ABCDEF01234567")
        let json = try devices(cli)
        let phone = try #require(json.devices.first { $0.family == "iphone" })
        #expect(phone == .init(udid: "00008030-001A2B3C4D5E6F70", name: "Ann's phone", family: "iphone", model: "iPhone15,2",
                               tester: "Ann", status: "active", added: phone.added))
        #expect(json.devices.first { $0.family == "ipad" }?.status == "removed")
        #expect(Set(json.usage.keys) == ["iphone", "ipad", "ipod", "watch", "tv", "mac", "vision"])
        #expect(json.usage["ipad"]?.used == 1)
        #expect(json.usage["ipad"]?.removed == 1)
        #expect(json.usage["iphone"]?.limit == 100)
        #expect(json.usage["iphone"]?.renews == "2027-03-01")
    }

    @Test(arguments: ["tsv", "deviceids"])
    func exportingAndImportingIntoANewHomeGivesTheSameRoster(format: String) throws {
        let dir = try TemporaryDirectory()
        let source = Betactl(home: dir.child("a"))
        try source.ok("init")
        try source.ok("add-tester", "Ann")
        try source.ok("add-device", "Ann", "00008030-001A2B3C4D5E6F70", "--family", "iphone", "--name", "Ann's iPhone")
        try source.ok("add-device", "Ann", "00008020-0011223344556677", "--family", "ipad", "--name", "Ann's iPad Pro")
        try source.ok("add-device", "Ann", "A5B5CD50-14AB-5AF7-8B78-AB4751AB10A8", "--name", "Build Mac")
        try source.ok("add-device", "Ann", "0123456789abcdef0123456789abcdef01234567", "--family", "iphone", "--name", "Old phone")
        try source.ok("remove-device", "0123456789abcdef0123456789abcdef01234567")
        let file = dir.child("devices.\(format == "tsv" ? "txt" : "deviceids")")
        try source.ok("export-devices", "--format", format, "--output", file)
        let target = Betactl(home: dir.child("b"))
        try target.ok("init")
        try target.ok("add-tester", "Ann")
        let output = try target.ok("import-devices", file, "--tester", "Ann")
        #expect(output.contains("Imported 3 devices"))
        func shape(_ json: DevicesJSON) -> Set<[String]> {
            Set(json.devices.filter { $0.status == "active" }.map { [$0.udid, $0.name, $0.family, $0.tester ?? ""] })
        }
        #expect(shape(try devices(target)) == shape(try devices(source)))
        #expect(try devices(target).devices.count == 3)
    }

    @Test func exportWritesAppleExactHeaderAndOnlyActiveDevices() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        try cli.ok("add-tester", "Ann", "--device", "00008030-001A2B3C4D5E6F70", "--device", "00008030-001A2B3C4D5E6F71", "--family", "iphone")
        try cli.ok("remove-device", "00008030-001A2B3C4D5E6F71")
        let tsv = try cli.ok("export-devices")
        #expect(tsv == "Device ID\tDevice Name\tDevice Platform\n00008030-001A2B3C4D5E6F70\tAnn's iPhone\tios\n")
        #expect(try cli.run("export-devices", "--format", "csv").status == 64)
    }

    @Test func aBadLineMeansNothingIsImportedAndEveryProblemIsListed() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let text = "Device ID\tDevice Name\tDevice Platform\n00008030-001A2B3C4D5E6F70\tGood\tios\nbad\tBad\tios\n00008030-001A2B3C4D5E6F71 Spaces ios\n"
        try text.write(toFile: dir.child("d.txt"), atomically: true, encoding: .utf8)
        let result = try cli.run("import-devices", dir.child("d.txt"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("nothing was imported"))
        #expect(result.stderr.contains("line 3: \"bad\" is not a device UDID"))
        #expect(result.stderr.contains("line 4: columns are separated by spaces"))
        #expect(try devices(cli).devices.isEmpty)
        let binary = try cli.run("import-devices", Betactl.executable.path)
        #expect(binary.status == 65)
    }

    /// A NUL in a device's name would cut it short when stored: the import (a binary .deviceids;
    /// the text form refuses binary bytes anyway) is refused, naming it.
    @Test func aNULInADeviceNameIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let file = dir.child("d.deviceids")
        let made = try await runTool("python3", ["-c", """
            import plistlib, sys
            devices = [{"deviceIdentifier": "00008030-001A2B3C4D5E6F70", "deviceName": "Good", "devicePlatform": "ios"},
                       {"deviceIdentifier": "00008030-001A2B3C4D5E6F71", "deviceName": "Ann\\x00Evil", "devicePlatform": "ios"}]
            open(sys.argv[1], "wb").write(plistlib.dumps({"Device UDIDs": devices}, fmt=plistlib.FMT_BINARY))
            """, file])
        #expect(made.status == 0, "\(made.error)")
        let result = try cli.run("import-devices", file)
        #expect(result.status == 65, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(#"the device name "Ann\u0000Evil" contains a NUL character"#), "\(result.stderr)")
        #expect(try devices(cli).devices.isEmpty, "nothing was imported")
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: [
        ("devices_tsv_fastlane_devices-list-with-comments.txt", 3),
        ("devices_tsv_fastlane_devices-list-with-platform.txt", 4),
        ("devices_tsv_sync_devices.txt", 4),
        ("devices_plist_sync_devices.deviceids", 4),
    ])
    func theSharedFixtureDeviceFilesImport(file: String, count: Int) throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let output = try cli.ok("import-devices", SharedFixtures.url("devices/\(file)").path)
        #expect(output.contains("Imported \(count) devices"))
        let json = try devices(cli)
        #expect(json.devices.count == count)
        #expect(json.devices.filter { $0.family == "mac" }.count == (file.contains("comments") ? 0 : 2))
    }

    @Test(.enabled(if: SharedFixtures.available))
    func theFastlaneHyphenFixtureIsRefusedForItsShortUDID() throws {
        let dir = try TemporaryDirectory()
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init")
        let result = try cli.run("import-devices", SharedFixtures.url("devices/devices_tsv_fastlane_devices-list-with-hyphen.txt").path)
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 2: \"A1234567-012345678901234\" is not a device UDID (it has 24 characters)"))
    }
}

extension DeviceFileCommandTests {
    @Test func importSaysWhichFamilyItAssumedAndOffersFamilyOnlyWhenNotGiven() throws {
        let dir = try TemporaryDirectory()
        let file = dir.child("devices.txt")
        try ["Device ID\tDevice Name\tDevice Platform",
             "00008030-00000000000000A1\tTest device 1\tios",
             "00008030-00000000000000A2\tTest device 2\tios",
             "00008030-00000000000000A3\tAnn's iPad\tios"].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let single = dir.child("single.txt")
        try "Device ID\tDevice Name\tDevice Platform\n00008030-00000000000000B1\tLab device\tios\n"
            .write(toFile: single, atomically: true, encoding: .utf8)

        let plain = Betactl(home: dir.child("plain"))
        try plain.ok("init")
        let assumed = try plain.ok("import-devices", file)
        #expect(assumed.contains("2 ios devices do not say their kind and were counted as iPhones; pass --family to choose another family."))
        let one = try plain.ok("import-devices", single)
        #expect(one.contains("1 ios device does not say its kind and was counted as an iPhone; pass --family to choose another family."))

        let chosen = Betactl(home: dir.child("chosen"))
        try chosen.ok("init")
        let watches = try chosen.ok("import-devices", file, "--family", "watch")
        #expect(watches.contains("2 ios devices do not say their kind and were counted as Apple Watches, as --family says."))
        #expect(!watches.contains("pass --family"))
        let ipads = try chosen.ok("import-devices", single, "--family", "ipad")
        #expect(ipads.contains("1 ios device does not say its kind and was counted as an iPad, as --family says."))
    }
}
