import Foundation
import Testing
import TestSupport

/// `betactl inspect --json` on every shared fixture, the generated fixtures, files signed with
/// openssl during the test, and random and truncated bytes.
@Suite struct InspectCommandTests {
    typealias Object = [String: Any]

    /// A runner with no betactl home and no usable HOME: inspect must need neither.
    static func runner() throws -> (Betactl, TemporaryDirectory) {
        let directory = try TemporaryDirectory("inspect-cli")
        let homeFile = try directory.write("home-is-a-file", [0])
        return (Betactl(home: "", extraEnvironment: ["BETACTL_HOME": "", "HOME": homeFile, "XDG_CACHE_HOME": ""]), directory)
    }

    /// Runs `inspect --json` on `paths`: the exit status and one object per file.
    static func inspect(_ cli: Betactl, _ paths: [String]) throws -> (status: Int32, objects: [Object], stderr: String) {
        let result = try cli.run(["inspect", "--json"] + paths)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let objects = paths.count == 1 ? [parsed as? Object].compactMap { $0 } : (parsed as? [Object]) ?? []
        #expect(objects.count == paths.count, "one object per file: \(result.stdout.prefix(300)) \(result.stderr)")
        return (result.status, objects, result.stderr)
    }

    /// The fields the issue lists for each kind; every inspection of that kind must have them.
    static let requiredFields: [String: [String]] = [
        "provisioning-profile": ["type", "name", "uuid", "team", "expires", "devices", "certificates", "entitlements"],
        "ipa": ["bundleId", "executables", "extensions", "icon"], "xcarchive": ["bundleId", "executables", "dsyms", "icon"],
        "app": ["bundleId", "executables", "icon"],
        "dsym": ["slices"], "macho": ["slices"],
        "crash-report": ["format", "images", "threads"],
        "jetsam-report": ["bugType", "pageSize", "largestProcess", "processes"],
        "diagnostic-report": ["bugType", "body"],
        "kscrash-report": ["version", "images", "hasBinaryImages"],
        "hockeyapp-crash-xml": ["bundleId", "version", "uuids", "log"],
        "plcrash": ["formatVersion", "convert"],
        "mobileconfig": ["payloadType", "payloadTypes", "signed", "identifier"],
        "device-enrollment-reply": ["udid", "signer", "certificates"],
        "device-list": ["format", "count", "families"],
        "plist": ["format", "xml"], "png": ["width", "height", "cgbi"],
    ]

    static func checkFields(_ object: Object, _ label: String) {
        guard let kind = object["kind"] as? String, let fields = requiredFields[kind] else {
            Issue.record("\(label): no known kind in \(object.keys.sorted())")
            return
        }
        for field in fields { #expect(object[field] != nil, "\(label): \(kind) lacks \(field)") }
        for slice in (object["slices"] as? [Object] ?? []) + (object["executables"] as? [Object] ?? []) {
            #expect(slice["arch"] is String && slice["uuid"] is String, "\(label): a slice without arch or uuid")
        }
        for image in object["images"] as? [Object] ?? [] {
            #expect(image["name"] is String && image["loadAddress"] is String, "\(label): an image without name or address")
        }
        for certificate in object["certificates"] as? [Object] ?? [] {
            #expect(certificate["subject"] is String && certificate["expires"] is String, "\(label): a certificate without subject or expiry")
        }
    }

    /// Every shared fixture and the kind it is; nil for files betactl does not know (exit 65).
    static func sharedExpectation(_ path: String) -> String? {
        switch path {
        case "SOURCES.md", "ipas/not-an-ipa.ipa", "devices/asc_devices_response_fastlane.json": return nil
        case let p where p.hasPrefix("crash/crashprobe/") && p.hasSuffix(".json"): return nil  // Sentry events
        // Apple-signed bundles: asset catalogs, compiled nibs, PkgInfo, PEM keys and scripts are not Apple files betactl reads.
        case let p where p.hasPrefix("signed/") && (p.hasSuffix(".car") || p.hasSuffix(".nib") || p.hasSuffix("/PkgInfo")
                                                    || p.hasSuffix(".pem") || p.hasSuffix(".rst") || p.hasSuffix(".sh")): return nil
        case "enrollment/Apple_iPhone_Device_CA_Fullchain.pem": return nil
        case let p where p.hasPrefix("enrollment/"): return "device-enrollment-reply"
        case let p where p.hasSuffix("/_CodeSignature/CodeResources") || p.hasSuffix(".mobileprovision.plist"): return "plist"
        case let p where p.hasPrefix("signed/") && p.hasSuffix(".mobileprovision"): return "provisioning-profile"
        case let p where p.hasPrefix("signed/") && !p.hasSuffix(".plist"): return "macho"
        case let p where p.hasSuffix("Info.plist") || p.hasPrefix("macho/Info_") || p.hasPrefix("macho/entitlements_"): return "plist"
        case let p where p.contains("/Contents/Resources/DWARF/"): return "dsym"
        case let p where p.hasPrefix("profiles/"): return "provisioning-profile"
        case let p where p.hasPrefix("devices/"): return "device-list"
        case let p where p.hasPrefix("icons/"): return "png"
        case let p where p.hasPrefix("ipas/"): return "ipa"
        case "macho/macho_fastlane_very-capable-app.bin": return "macho"
        case let p where p.hasPrefix("crash/kscrash/") && p.hasSuffix(".json"): return "kscrash-report"
        default: return "crash-report"
        }
    }

    /// Shared fixtures that are damaged on purpose (exit 65, reported as their kind).
    static let damagedShared = ["profiles/malformed_truncated_iterable_dev-1.mobileprovision", "ipas/no-app-bundle.ipa",
                                "devices/devices_tsv_fastlane_devices-list-with-hyphen.txt"]

    @Test(.enabled(if: SharedFixtures.available))
    func everySharedFixtureIsInspectedAsItsKindOrNamedAsUnknown() throws {
        let (cli, directory) = try Self.runner()
        defer { withExtendedLifetime(directory) {} }
        let root = SharedFixtures.root.path
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { !FileManager.default.isDirectory(root + "/" + $0) }.sorted()
        #expect(files.count >= 60, "the fixture walk found too few files")
        let (status, objects, stderr) = try Self.inspect(cli, files.map { root + "/" + $0 })
        #expect(status == 65, "some shared fixtures are unknown or damaged on purpose")
        for (file, object) in zip(files, objects) {
            let expected = Self.sharedExpectation(file)
            if expected == nil || Self.damagedShared.contains(file) {
                let error = object["error"] as? String ?? ""
                #expect(object["kind"] as? String == expected, "\(file): \(error)")
                #expect(error.hasPrefix(root + "/" + file), "\(file): the message names the file")
                #expect(error.contains(expected == nil ? "is not a file betactl knows: it is " : "is a damaged \(expected ?? "")"), "\(file): \(error)")
                #expect(stderr.contains(error), "\(file): the error is also on standard error")
            } else {
                #expect(object["kind"] as? String == expected, "\(file): \(object["error"] ?? "")")
                Self.checkFields(object, file)
            }
        }
        // A few values, to show the fields are the file's own.
        func object(_ file: String) -> Object { zip(files, objects).first { $0.0 == file }?.1 ?? [:] }
        #expect(object("profiles/adhoc_2021_Ververtom_WebclipTest.mobileprovision")["type"] as? String == "ad-hoc")
        #expect(object("profiles/enterprise_modern_fellw_mda-distribute-app.mobileprovision")["type"] as? String == "enterprise")
        #expect(object("profiles/appstore_2015_fastlane_test.mobileprovision")["type"] as? String == "app-store")
        #expect(object("profiles/development_modern_OutrageousStorm_test1.mobileprovision")["devices"] as? Int == 48)
        #expect(object("profiles/development_BER_indefinite_fastlane_very-capable-app.mobileprovision")["usesBER"] as? Bool == true)
        #expect(object("crash/kscrash/NSException.json")["process"] as? String == "Crash-Tester")
        #expect((object("crash/idb/xctest-concated-json-crash.ips")["bugType"] as? String) == "309")
        #expect((object("devices/devices_plist_sync_devices.deviceids")["format"] as? String) == "deviceids")
        #expect((object("icons/cgbi_JesseWo_AppIcon57_singleIDAT.png")["cgbi"] as? Bool) == true)
        let watch = object("ipas/ContainsWatchApp.ipa")
        #expect((watch["extensions"] as? [Object])?.contains { $0["kind"] as? String == "watch-app" } == true)
    }

    @Test func everyGeneratedInspectFixtureShowsItsFields() throws {
        let (cli, directory) = try Self.runner()
        defer { withExtendedLifetime(directory) {} }
        let root = LocalFixtures.url("inspect").path
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { !FileManager.default.isDirectory(root + "/" + $0) && !$0.hasSuffix(".py") && !$0.hasSuffix(".sh") && !$0.hasSuffix(".md") && $0 != "expected.json" }
            .sorted()
        let (status, objects, _) = try Self.inspect(cli, files.map { root + "/" + $0 })
        #expect(status == 65, "the bad-UDID reply and the 4.0.0 KSCrash report are refused")
        var byFile: [String: Object] = [:]
        for (file, object) in zip(files, objects) {
            byFile[file] = object
            if file == "enrollment/reply-bad-udid.der" || file == "kscrash/kscrash-4.0.0.json" {
                #expect(object["error"] != nil && object["kind"] != nil, "\(file) is damaged")
            } else {
                Self.checkFields(object, file)
            }
        }
        let reply = try #require(byFile["enrollment/reply-iphone-ber.der"])
        #expect(reply["kind"] as? String == "device-enrollment-reply")
        #expect(reply["udid"] as? String == "00008110-000A1B2C3D4E5F60")
        #expect(reply["product"] as? String == "iPhone15,2" && reply["version"] as? String == "21A329")
        #expect(reply["serial"] as? String == "F2LXK0ABCDEF" && reply["deviceName"] as? String == "Ann\u{2019}s iPhone")
        #expect(reply["imei"] as? String == "35 123456 789012 3" && reply["challenge"] as? String == "c-7f3a9b1e5d2c4a6f")
        #expect((reply["signer"] as? Object)?["expired"] as? Bool == true)
        #expect(byFile["enrollment/reply-ipad-wifi.der"]?["imei"] == nil)
        let service = try #require(byFile["mobileconfig/profile-service-signed-ber.mobileconfig"])
        #expect(service["signed"] as? Bool == true && service["usesBER"] as? Bool == true)
        #expect(service["url"] as? String == "https://beta.example.com/enroll/t0k3n")
        #expect(service["deviceAttributes"] as? [String] == ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"])
        #expect(service["hasChallenge"] as? Bool == true)
        #expect(((service["signer"] as? Object)?["subject"] as? String)?.contains("beta.example.com") == true)
        #expect(byFile["mobileconfig/profile-service.mobileconfig"]?["signed"] as? Bool == false)
        #expect(byFile["mobileconfig/configuration-wifi.mobileconfig"]?["payloadTypes"] as? [String] == ["com.apple.wifi.managed", "com.apple.security.root"])
        let jetsam = try #require(byFile["ips/JetsamEvent-2024-05-06-101112.ips"])
        #expect(jetsam["os"] as? String == "iPhone OS 17.4.1 (21E236)" && jetsam["hardwareModel"] as? String == "iPhone14,5")
        #expect(jetsam["pageSize"] as? Int == 16384 && jetsam["largestProcess"] as? String == "App")
        let first = try #require((jetsam["processes"] as? [Object])?.first)
        #expect(first["name"] as? String == "App" && first["pages"] as? Int == 120000 && first["reason"] as? String == "per-process-limit")
        #expect(first["bytes"] as? Int == 120000 * 16384)
        for (file, bugType, name) in [("ips/App.cpu_resource-2024-05-06-101112.ips", "202", "cpu_resource"),
                                      ("ips/App.diskwrites_resource-2024-05-06-101112.ips", "145", "diskwrites_resource"),
                                      ("ips/App.wakeups_resource-2024-05-06-101112.ips", "142", "wakeups_resource"),
                                      ("ips/Stacks-2024-05-06-101112.ips", "288", "stackshot"), ("ips/panic-full-2024-05-06-101112.ips", "210", "panic")] {
            #expect(byFile[file]?["kind"] as? String == "diagnostic-report" && byFile[file]?["bugType"] as? String == bugType)
            #expect(byFile[file]?["bugTypeName"] as? String == name)
        }
        for file in ["kscrash/kscrash-2.0.json", "kscrash/kscrash-3.0.0-seconds.json", "kscrash/kscrash-3.4.0-microseconds.json",
                     "kscrash/sentrycrash-3.2.0.json", "kscrash/kscrash-3.4.0-no-images.json", "kscrash/kscrash-3.1.0-minimal.json"] {
            let report = try #require(byFile[file])
            #expect(report["kind"] as? String == "kscrash-report", "\(file)")
            #expect(report["process"] as? String == "App" && report["os"] as? String == "iOS 17.4.1 (21E236)", "\(file)")
            #expect((report["exception"] as? Object)?["machException"] as? String == "EXC_BAD_ACCESS", "\(file)")
            let images = report["images"] as? [Object] ?? []
            #expect(images.count == (file.contains("no-images") || file.contains("minimal") ? 0 : 3), "\(file)")
            #expect(images.first?["uuid"] as? String == (images.isEmpty ? nil : "4C4C440B-5555-3144-A184-68D7AACD7C75"), "\(file)")
            #expect(images.first?["arch"] as? String == (images.isEmpty ? nil : "arm64"), "\(file)")
        }
        #expect(byFile["kscrash/kscrash-2.0.json"]?["version"] as? String == "2.0")
        let hockey = try #require(byFile["hockeyapp/crash-upload.xml"])
        #expect(hockey["bundleId"] as? String == "com.example.fixture" && hockey["version"] as? String == "42")
        #expect((hockey["uuids"] as? [Object])?.first?["uuid"] as? String == "4C4C440B-5555-3144-A184-68D7AACD7C75")
        #expect((hockey["log"] as? Object)?["process"] as? String == "App")
        #expect((byFile["plcrash/App.plcrash"]?["convert"] as? String)?.contains("plcrashutil convert --format=iphone") == true)
    }

    @Test func buildsSymbolsAndCrashReportsOfTheOtherFixturesShowTheirFields() throws {
        let (cli, directory) = try Self.runner()
        defer { withExtendedLifetime(directory) {} }
        let files = ["formats/app/Beta.ipa", "formats/app/Beta.xcarchive.zip", "formats/app/Beta.app.dSYM.zip", "formats/profiles/beta_expired.mobileprovision",
                     "symbols/arm64-dwarf5/App.dSYM", "symbols/crashes/App-309.ips", "symbols/crashes/App-exception.crash"]
        let (status, objects, stderr) = try Self.inspect(cli, files.map { LocalFixtures.url($0).path })
        #expect(status == 0, "\(stderr)")
        for (file, object) in zip(files, objects) { Self.checkFields(object, file) }
        let ipa = objects[0]
        #expect(ipa["kind"] as? String == "ipa" && ipa["bundleId"] as? String == "com.example.beta")
        #expect(ipa["version"] as? String == "1.2.3" && ipa["build"] as? String == "45" && ipa["minimumOS"] as? String == "15.0")
        let executables = ipa["executables"] as? [Object] ?? []
        #expect(executables.map { $0["arch"] as? String } == ["arm64", "arm64e", "arm64"])
        #expect(executables.allSatisfy { ($0["entitlements"] as? Object)?["application-identifier"] is String })
        #expect((ipa["profile"] as? Object)?["type"] as? String == "ad-hoc")
        #expect(ipa["icon"] as? Bool == true)
        #expect(objects[1]["kind"] as? String == "xcarchive" && (objects[1]["dsyms"] as? [Object])?.count == 3)
        #expect(objects[2]["kind"] as? String == "dsym")
        #expect(objects[3]["expired"] as? Bool == true, "an expired profile says so")
        let dsym = try #require((objects[4]["slices"] as? [Object])?.first)
        #expect(objects[4]["kind"] as? String == "dsym" && dsym["dwarfVersions"] as? [Int] == [5])
        let crash = objects[5]
        #expect(crash["bugType"] as? String == "309" && crash["process"] as? String == "App" && crash["version"] as? String == "1.2")
        #expect(crash["os"] as? String == "iPhone OS 17.4.1 (21E236)" && crash["hardwareModel"] as? String == "iPhone14,5")
        #expect(crash["incident"] as? String == "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6")
        #expect((crash["exception"] as? Object)?["type"] as? String == "EXC_BAD_ACCESS")
        #expect((crash["crashedThread"] as? Object)?["number"] as? Int == 0)
        #expect((crash["images"] as? [Object])?.first?["uuid"] as? String == "4C4C440B-5555-3144-A184-68D7AACD7C75")
    }

    /// The kind of each generated fixture, by where it is and what it is called; nil for files
    /// that are no kind betactl knows (sources, scripts, tables).
    static func generatedExpectation(_ path: String) -> String?? {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        switch ext {
        case "mobileprovision": return "provisioning-profile"
        case "ipa": return "ipa"
        case "mobileconfig": return "mobileconfig"
        case "der": return "device-enrollment-reply"
        case "crash": return "crash-report"
        case "png": return "png"
        case "plcrash": return "plcrash"
        case "plist", "bplist": return "plist"
        case "ips": return path.hasPrefix("symbols/") ? "crash-report" : name.hasPrefix("JetsamEvent") ? "jetsam-report" : "diagnostic-report"
        case "json" where path.hasPrefix("inspect/kscrash/"): return "kscrash-report"
        case "xml" where path.hasPrefix("inspect/hockeyapp/"): return "hockeyapp-crash-xml"
        case "zip" where path.hasPrefix("formats/app/"): return name.contains("xcarchive") ? "xcarchive" : "dsym"
        case "" where path.contains(".dSYM/Contents/Resources/DWARF/"): return "dsym"
        case "json" where name == "expected.json", "c", "h", "cpp", "swift", "py", "sh", "md", "tsv", "yml", "rgba", "http": return .some(nil)
        default: return nil  // not checked: hostile zips may be refused in several ways
        }
    }

    @Test func everyGeneratedFixtureIsInspectedAsItsKindOrNamedAsUnknown() throws {
        let (cli, directory) = try Self.runner()
        defer { withExtendedLifetime(directory) {} }
        let root = LocalFixtures.root.path
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { !FileManager.default.isDirectory(root + "/" + $0) }.sorted()
        #expect(files.count >= 90)
        let (status, objects, _) = try Self.inspect(cli, files.map { root + "/" + $0 })
        #expect(status == 65)
        var checked = 0
        for (file, object) in zip(files, objects) {
            if let error = object["error"] as? String {
                #expect(error.hasPrefix(root + "/" + file) && (error.contains("is not a file betactl knows: it is ") || error.contains("is a damaged ")), "\(error)")
            } else {
                Self.checkFields(object, file)
            }
            guard let expected = Self.generatedExpectation(file) else { continue }
            checked += 1
            if let kind = expected {
                #expect(object["kind"] as? String == kind, "\(file): \(object["error"] ?? "")")
            } else {
                #expect(object["kind"] == nil && (object["error"] as? String)?.contains("is not a file betactl knows") == true, "\(file)")
            }
        }
        #expect(checked >= 80)
    }

    @Test func repliesAndProfilesSignedWithOpensslNowAreRead() async throws {
        let (cli, directory) = try Self.runner()
        defer { withExtendedLifetime(directory) {} }
        let key = directory.child("device.key"), cert = directory.child("device.pem")
        try await blocking { _ = try TestKeys.rsa("inspect-device", copiedTo: key) }
        let made = try await runTool("openssl", ["req", "-x509", "-key", key, "-out", cert, "-days", "1",
                                                 "-subj", "/CN=00008030-001A2B3C4D5E6F70"])
        #expect(made.status == 0, "\(made.error)")
        let attributes = """
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>UDID</key><string>00008030-001a2b3c4d5e6f70</string>\
        <key>PRODUCT</key><string>iPad14,1</string><key>VERSION</key><string>22B83</string><key>CHALLENGE</key><string>x</string></dict></plist>
        """
        let plist = try directory.write("reply.plist", Array(attributes.utf8))
        var paths: [String] = []
        for ber in [false, true] {
            let out = directory.child(ber ? "reply-ber.der" : "reply.der")
            let sign = try await runTool("openssl", ["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plist, "-signer", cert, "-inkey", key, "-out", out] + (ber ? ["-stream"] : []))
            #expect(sign.status == 0, "\(sign.error)")
            paths.append(out)
        }
        let (status, objects, stderr) = try Self.inspect(cli, paths)
        #expect(status == 0, "\(stderr)")
        for object in objects {
            #expect(object["kind"] as? String == "device-enrollment-reply")
            #expect(object["udid"] as? String == "00008030-001A2B3C4D5E6F70", "normalised")
            #expect(object["product"] as? String == "iPad14,1" && object["family"] as? String == "ipad")
            #expect(object["imei"] == nil)
        }
        #expect(objects.map { $0["usesBER"] as? Bool } == [false, true])
    }

    @Test func randomAndTruncatedBytesGiveAKindOrANamedRefusalAndNeverACrash() throws {
        let (cli, directory) = try Self.runner()
        var generator = SystemRandomNumberGenerator()
        var paths: [String] = []
        for index in 0 ..< 40 {
            let count = [0, 1, 7, 64, 1000, 5000][index % 6]
            paths.append(try directory.write("random-\(index)", (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }))
        }
        for fixture in ["inspect/enrollment/reply-iphone-ber.der", "inspect/kscrash/kscrash-3.0.0-seconds.json", "inspect/ips/JetsamEvent-2024-05-06-101112.ips",
                        "inspect/hockeyapp/crash-upload.xml", "inspect/mobileconfig/profile-service-signed.mobileconfig", "formats/app/Beta.ipa",
                        "formats/profiles/beta_adhoc_ber.mobileprovision", "symbols/crashes/App-309.ips",
                        "symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App"] {
            let bytes = [UInt8](try LocalFixtures.data(fixture))
            for fraction in [1, 3, 6, 9] {
                let name = fixture.replacingOccurrences(of: "/", with: "_") + "-cut\(fraction)"
                paths.append(try directory.write(name, Array(bytes.prefix(bytes.count * fraction / 10))))
            }
        }
        let (status, objects, _) = try Self.inspect(cli, paths)
        #expect(status == 65)
        for (path, object) in zip(paths, objects) {
            if let error = object["error"] as? String {
                #expect(error.hasPrefix(path) && (error.contains("is not a file betactl knows: it is ") || error.contains("is a damaged ")), "\(error)")
            } else {
                Self.checkFields(object, path)
            }
        }
        // A cut reply or report is still named by its kind.
        let cutReply = try #require(zip(paths, objects).first { $0.0.hasSuffix("reply-iphone-ber.der-cut6") }?.1)
        #expect(cutReply["kind"] as? String == "device-enrollment-reply" && cutReply["error"] != nil)
        let cutKSCrash = try #require(zip(paths, objects).first { $0.0.hasSuffix("kscrash-3.0.0-seconds.json-cut6") }?.1)
        #expect(cutKSCrash["kind"] as? String == "kscrash-report" && cutKSCrash["error"] != nil)
    }

    @Test func textOutputSummarisesAndAnUnknownFileExits65NamingItsFirstBytes() throws {
        let (cli, directory) = try Self.runner()
        let text = try cli.run("inspect", LocalFixtures.url("inspect/enrollment/reply-iphone.der").path)
        #expect(text.status == 0)
        #expect(text.stdout.contains(": device-enrollment-reply\n"))
        #expect(text.stdout.contains("UDID:      00008110-000A1B2C3D4E5F60"))
        #expect(text.stdout.contains("(expired)"))
        let elf = try directory.write("tool", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0])
        let unknown = try cli.run("inspect", elf)
        #expect(unknown.status == 65)
        #expect(unknown.stderr == "error: \(elf) is not a file betactl knows: it is an ELF executable (Linux, not Apple) (it starts with 7f 45 4c 46 02 01 01 00); pass a profile, an .ipa, .xcarchive, .app, .dSYM, Mach-O, crash or diagnostic report, .mobileconfig, enrolment reply, device list or plist\n")
        let missing = try cli.run("inspect", directory.child("nothing-here"))
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("nothing-here: no such file or folder"))
        let usage = try cli.run("inspect")
        #expect(usage.status == 64)
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
