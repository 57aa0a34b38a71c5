import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Recognition by bytes alone: every fixture's kind, damaged files still named by their kind
/// when enough is left, and unknown bytes described.
@Suite struct FileRecognizerTests {
    static let local: [(String, AppleFileKind)] = [
        ("inspect/enrollment/reply-iphone.der", .deviceEnrollmentReply), ("inspect/enrollment/reply-iphone-ber.der", .deviceEnrollmentReply),
        ("inspect/enrollment/reply-bad-udid.der", .deviceEnrollmentReply),
        ("inspect/mobileconfig/profile-service.mobileconfig", .mobileconfig), ("inspect/mobileconfig/profile-service-signed-ber.mobileconfig", .mobileconfig),
        ("inspect/mobileconfig/configuration-wifi-signed.mobileconfig", .mobileconfig),
        ("inspect/ips/JetsamEvent-2024-05-06-101112.ips", .jetsamReport), ("inspect/ips/Stacks-2024-05-06-101112.ips", .diagnosticReport),
        ("inspect/ips/App.wakeups_resource-2024-05-06-101112.ips", .diagnosticReport),
        ("inspect/kscrash/kscrash-2.0.json", .kscrashReport), ("inspect/kscrash/kscrash-3.1.0-minimal.json", .kscrashReport),
        ("inspect/kscrash/kscrash-4.0.0.json", .kscrashReport),
        ("inspect/hockeyapp/crash-upload.xml", .hockeyAppCrashXML), ("inspect/plcrash/App.plcrash", .plcrash),
        ("symbols/crashes/App-309.ips", .crashReport), ("symbols/crashes/App-109.ips", .crashReport),
        ("symbols/crashes/App-legacy.crash", .crashReport), ("symbols/crashes/App-exception.crash", .crashReport),
        ("symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App", .dsym), ("symbols/arm64-dwarf4/App.dSYM/Contents/Info.plist", .plist),
        ("formats/profiles/beta_adhoc.mobileprovision", .provisioningProfile), ("formats/profiles/beta_adhoc_ber.mobileprovision", .provisioningProfile),
        ("formats/app/Beta.ipa", .ipa), ("formats/app/Beta.xcarchive.zip", .xcarchive), ("formats/app/Beta.app.dSYM.zip", .dsym),
        ("formats/icons/cgbi_7x5_multiIDAT.png", .png),
    ]

    @Test(arguments: local.map(\.0))
    func recognisesEveryGeneratedFixture(_ path: String) throws {
        let expected = try #require(Self.local.first { $0.0 == path }?.1)
        let recognition = FileRecognizer.recognize([UInt8](try LocalFixtures.data(path)))
        #expect(recognition.kind == expected, "\(recognition.evidence)")
    }

    static let shared: [(String, AppleFileKind?)] = [
        ("profiles/development_BER_indefinite_fastlane_very-capable-app.mobileprovision", .provisioningProfile),
        ("profiles/malformed_truncated_iterable_dev-1.mobileprovision", .provisioningProfile),
        ("macho/macho_fastlane_very-capable-app.bin", .macho), ("macho/Info_binary_fastlane_very-capable-app.plist", .plist),
        ("devices/devices_plist_sync_devices.deviceids", .deviceList), ("devices/devices_tsv_sync_devices.txt", .deviceList),
        ("devices/devices_tsv_fastlane_devices-list-with-comments.txt", .deviceList),
        ("crash/acrp/spaces.txt", .crashReport), ("crash/idb/xctest-concated-json-crash.ips", .crashReport),
        ("crash/kscrash/NSException.json", .kscrashReport), ("crash/kscrash/NSException.txt", .crashReport),
        ("ipas/iOSAppOnly.ipa", .ipa), ("ipas/no-app-bundle.ipa", .ipa), ("icons/cgbi_Mosquito1123_AppIcon60x60@2x.png", .png),
        ("ipas/not-an-ipa.ipa", nil), ("SOURCES.md", nil), ("devices/asc_devices_response_fastlane.json", nil),
        ("crash/crashprobe/arm64/Swift.json", nil),
    ]

    @Test(.enabled(if: SharedFixtures.available), arguments: shared.map(\.0))
    func recognisesTheSharedFixtures(_ path: String) throws {
        let expected = try #require(Self.shared.first { $0.0 == path }).1
        let recognition = FileRecognizer.recognize([UInt8](try SharedFixtures.data(path)))
        #expect(recognition.kind == expected, "\(recognition.evidence)")
    }

    @Test func unknownBytesAreDescribedByWhatTheyLookLike() {
        func evidence(_ bytes: [UInt8]) -> String {
            let recognition = FileRecognizer.recognize(bytes)
            #expect(recognition.kind == nil)
            return recognition.evidence
        }
        #expect(evidence([]) == "an empty file")
        #expect(evidence([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]) == "an ELF executable (Linux, not Apple) (it starts with 7f 45 4c 46 02 01 01 00)")
        #expect(evidence([0x1F, 0x8B, 8, 0, 0, 0]).hasPrefix("gzip-compressed data"))
        #expect(evidence(Array("hello\tworld\nsecond line".utf8)) == "text starting with \"hello?world\"")
        #expect(evidence([0x00, 0x01, 0x02, 0xFF]) == "binary data starting with 00 01 02 ff")
        #expect(evidence(Array(#"[{"a":1}]"#.utf8)) == "text starting with \"[{\"a\":1}]\"")
        #expect(evidence(Array(#"{"data":[]}"#.utf8)) == "a JSON object that is no report betactl knows (its keys are data)")
        #expect(evidence(Array("<html><body/></html>".utf8)) == "an XML document whose root element is <html>")
        let quoted = "header = \"\"\"Incident Identifier: 1\nHardware Model:      iPhone14,5\nException Type:  EXC_BAD_ACCESS\n\"\"\"\n"
        #expect(evidence(Array(quoted.utf8)).hasPrefix("text starting with \"header = "), "a script quoting a report is not one")
        #expect(evidence([0x30, 0x82, 0x01, 0x0a, 0x02, 0x82, 0x01, 0x01]).hasPrefix("ASN.1 data starting with 30 82 01 0a"))
    }

    @Test func damagedFilesAreStillNamedByTheirKind() throws {
        let profile = [UInt8](try LocalFixtures.data("formats/profiles/beta_adhoc.mobileprovision"))
        #expect(FileRecognizer.recognize(Array(profile.prefix(profile.count - 300))).kind == .provisioningProfile)
        let reply = [UInt8](try LocalFixtures.data("inspect/enrollment/reply-iphone.der"))
        #expect(FileRecognizer.recognize(Array(reply.prefix(reply.count / 2))).kind == .deviceEnrollmentReply)
        let kscrash = [UInt8](try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json"))
        #expect(FileRecognizer.recognize(Array(kscrash.prefix(kscrash.count / 2))).kind == .kscrashReport)
        let ipa = [UInt8](try LocalFixtures.data("formats/app/Beta.ipa"))
        let cut = FileRecognizer.recognize(Array(ipa.prefix(ipa.count / 2)))
        #expect(cut.kind == .ipa && cut.evidence.hasPrefix("a damaged zip archive whose first entry is Payload/"))
    }

    @Test func zipLayoutsAreToldByTheirEntryNames() {
        #expect(FileRecognizer.zipKind(["Payload/", "Payload/A.app/Info.plist"]) == .ipa)
        #expect(FileRecognizer.zipKind(["Export/Payload/A.app/A"]) == .ipa)
        #expect(FileRecognizer.zipKind(["A.xcarchive/Products/Applications/A.app/A", "A.xcarchive/dSYMs/A.app.dSYM/Contents/Resources/DWARF/A"]) == .xcarchive)
        #expect(FileRecognizer.zipKind(["A.app.dSYM/Contents/Resources/DWARF/A"]) == .dsym)
        #expect(FileRecognizer.zipKind(["A.app/Info.plist", "A.app/A"]) == .app)
        #expect(FileRecognizer.zipKind(["docs/readme.txt"]) == nil)
    }

    @Test func randomBytesAreRecognisedTheSameWayTwiceAndNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let prefixes: [[UInt8]] = [[], Array("{".utf8), Array("<".utf8), [0x30, 0x80], [0xCA, 0xFE, 0xBA, 0xBE], Array("bplist00".utf8), Array("PK\u{3}\u{4}".utf8)]
        for round in 0 ..< 400 {
            let body = (0 ..< Int.random(in: 0 ... 600, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let bytes = prefixes[round % prefixes.count] + body
            let first = FileRecognizer.recognize(bytes)
            #expect(!first.evidence.isEmpty)
            #expect(FileRecognizer.recognize(bytes) == first)
        }
    }
}
