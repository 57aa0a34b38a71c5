import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

/// `Inspector` on builds, dSYMs and Mach-O files, zipped and as folders (Tests/Fixtures/formats,
/// Tests/Fixtures/symbols), and on damaged ones.
@Suite struct InspectorTests {
    static let uuids: [String: [String: String]] = {
        let data = (try? LocalFixtures.data("formats/app/expected.json")) ?? Data()
        return (try? JSONDecoder().decode([String: [String: String]].self, from: data)) ?? [:]
    }()

    static func inspector() throws -> (Inspector, TemporaryDirectory) {
        let work = try TemporaryDirectory("inspect-work")
        return (Inspector(now: Date(timeIntervalSince1970: 1_750_000_000), workDirectory: work.path), work)
    }

    static func bundle(_ inspection: FileInspection) throws -> BundleSummary {
        guard case let .bundle(summary) = inspection.summary else { throw InspectionError.missing(path: "not a bundle") }
        return summary
    }

    static func machO(_ inspection: FileInspection) throws -> MachOSummary {
        guard case let .machO(summary) = inspection.summary else { throw InspectionError.missing(path: "not a Mach-O") }
        return summary
    }

    /// Checks what every form of the Beta app shows: its Info.plist, both executables with their
    /// slices and entitlements, the embedded profile, the widget and the icon.
    static func checkBetaApp(_ summary: BundleSummary) throws {
        #expect(summary.bundleId == "com.example.beta")
        #expect(summary.name == "Beta Fixtures")
        #expect(summary.version == "1.2.3")
        #expect(summary.build == "45")
        #expect(summary.minimumOS == "15.0")
        #expect(summary.icon)
        let main = summary.executables.filter { $0.kind == "app" }
        #expect(main.map(\.arch) == ["arm64", "arm64e"])
        #expect(main.map(\.uuid) == [uuids["Beta"]?["arm64"], uuids["Beta"]?["arm64e"]])
        #expect(main.allSatisfy { $0.path.hasSuffix("Beta.app/Beta") && $0.signingIdentifier == "com.example.beta" })
        #expect(main.first?.entitlements?["application-identifier"] == PlistJSON(.string("ABCDE12345.com.example.beta")))
        let widget = try #require(summary.executables.first { $0.kind == "extension" })
        #expect(widget.uuid == uuids["BetaWidget"]?["arm64"])
        #expect(widget.bundleId == "com.example.beta.widget")
        #expect(widget.entitlements?["application-identifier"] == PlistJSON(.string("ABCDE12345.com.example.beta.widget")))
        let profile = try #require(summary.profile)
        #expect(profile.type == "ad-hoc" && profile.name == "Beta Ad Hoc" && profile.devices == 3 && !profile.expired)
        #expect(profile.appId == "ABCDE12345.com.example.beta")
        #expect(summary.extensions.map(\.bundleId) == ["com.example.beta.widget"])
        #expect(summary.extensions.first?.profile?.contains("ad-hoc") == true)
    }

    @Test func anIPAShowsItsAppExecutablesProfileExtensionsAndIcon() throws {
        let (inspector, work) = try Self.inspector()
        let inspection = try inspector.inspect(path: LocalFixtures.url("formats/app/Beta.ipa").path)
        #expect(inspection.kind == .ipa)
        let summary = try Self.bundle(inspection)
        try Self.checkBetaApp(summary)
        #expect(summary.sha256?.count == 64)
        #expect(summary.dsyms.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "extracted entries are removed")
    }

    @Test func aZippedAndAnUnzippedXcarchiveShowTheAppAndItsDSYMs() async throws {
        let (inspector, work) = try Self.inspector()
        let zipped = try inspector.inspect(path: LocalFixtures.url("formats/app/Beta.xcarchive.zip").path)
        let unzip = try await runTool("unzip", ["-q", LocalFixtures.url("formats/app/Beta.xcarchive.zip").path, "-d", work.child("unzipped")])
        #expect(unzip.status == 0, "\(unzip.error)")
        let folder = try inspector.inspect(path: work.child("unzipped/Beta.xcarchive"))
        for inspection in [zipped, folder] {
            #expect(inspection.kind == .xcarchive)
            let summary = try Self.bundle(inspection)
            try Self.checkBetaApp(summary)
            #expect(Set(summary.dsyms.compactMap(\.uuid)) == Set([Self.uuids["BetaDSYM"]?["arm64"], Self.uuids["BetaDSYM"]?["arm64e"],
                                                                 Self.uuids["BetaWidget"]?["arm64"]].compactMap { $0 }))
            #expect(summary.dsyms.allSatisfy { $0.fileType == "dsym" && $0.dwarfVersions?.isEmpty == false })
        }
    }

    @Test func anAppFolderIsToldByItsLayout() async throws {
        let (inspector, work) = try Self.inspector()
        let unzip = try await runTool("unzip", ["-q", LocalFixtures.url("formats/app/Beta.ipa").path, "-d", work.child("ipa")])
        #expect(unzip.status == 0, "\(unzip.error)")
        let inspection = try inspector.inspect(path: work.child("ipa/Payload/Beta.app/"))
        #expect(inspection.kind == .app)
        #expect(inspection.path == work.child("ipa/Payload/Beta.app"))
        try Self.checkBetaApp(try Self.bundle(inspection))
    }

    @Test(arguments: [("arm64-dwarf4/App.dSYM", [4], "4C4C440B-5555-3144-A184-68D7AACD7C75"),
                      ("arm64-dwarf5/App.dSYM", [5], "4C4C44CB-5555-3144-A193-01A96C0F0FE1")])
    func aDSYMFolderShowsUUIDArchitectureAndDWARFVersion(_ path: String, _ versions: [Int], _ uuid: String) throws {
        let (inspector, work) = try Self.inspector()
        defer { withExtendedLifetime(work) {} }
        let inspection = try inspector.inspect(path: LocalFixtures.url("symbols/" + path).path)
        #expect(inspection.kind == .dsym)
        let slices = try Self.machO(inspection).slices
        #expect(slices.map(\.uuid) == [uuid])
        #expect(slices.map(\.arch) == ["arm64"])
        #expect(slices.first?.dwarfVersions == versions)
        #expect(slices.first?.path?.hasSuffix("Contents/Resources/DWARF/App") == true)
    }

    @Test func aFatDWARFFileAndAZippedDSYMListEverySlice() throws {
        let (inspector, work) = try Self.inspector()
        defer { withExtendedLifetime(work) {} }
        let fat = try inspector.inspect(path: LocalFixtures.url("symbols/fat/Fat.dSYM/Contents/Resources/DWARF/Fat").path)
        #expect(fat.kind == .dsym)
        let summary = try Self.machO(fat)
        #expect(summary.fat && Set(summary.slices.map(\.arch)) == ["arm64", "armv7"])
        #expect(summary.slices.allSatisfy { $0.fileType == "dsym" && $0.uuid != nil })
        let folder = try Self.machO(try inspector.inspect(path: LocalFixtures.url("symbols/fat/Fat.dSYM").path))
        #expect(folder.fat && folder.slices.map(\.uuid) == summary.slices.map(\.uuid))
        let zipped = try inspector.inspect(path: LocalFixtures.url("formats/app/Beta.app.dSYM.zip").path)
        #expect(zipped.kind == .dsym)
        #expect(try Self.machO(zipped).slices.map(\.uuid) == [Self.uuids["BetaDSYM"]?["arm64"], Self.uuids["BetaDSYM"]?["arm64e"]])
    }

    @Test(.enabled(if: SharedFixtures.available))
    func aSignedExecutableShowsItsSigningIdentifierAndTeam() throws {
        let (inspector, work) = try Self.inspector()
        defer { withExtendedLifetime(work) {} }
        let inspection = try inspector.inspect(path: SharedFixtures.url("macho/macho_fastlane_very-capable-app.bin").path)
        #expect(inspection.kind == .macho)
        let slice = try #require(try Self.machO(inspection).slices.first)
        #expect(slice.arch == "arm64" && slice.fileType == "executable")
        #expect(slice.identifier != nil && slice.uuid != nil)
        #expect(slice.dwarfVersions == nil)
    }

    @Test func damagedBuildsAreReportedAsTheirKindWithWhatIsDamaged() throws {
        let (inspector, work) = try Self.inspector()
        let ipa = [UInt8](try LocalFixtures.data("formats/app/Beta.ipa"))
        let truncated = try work.write("cut.bin", Array(ipa.prefix(ipa.count - 100)))
        #expect {
            try inspector.inspect(path: truncated)
        } throws: { error in
            guard let error = error as? InspectionError, case let .damaged(path, kind, detail) = error else { return false }
            return path == truncated && kind == .ipa && !detail.isEmpty
        }
        let executable = [UInt8](try LocalFixtures.data("symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App"))
        let cutMachO = try work.write("cut-macho", Array(executable.prefix(40)))
        #expect {
            try inspector.inspect(path: cutMachO)
        } throws: { error in (error as? InspectionError)?.kind == .dsym || (error as? InspectionError)?.kind == .macho }
        let notAZipOfBundles = LocalFixtures.url("formats/zip/mixed.zip").path
        #expect {
            try inspector.inspect(path: notAZipOfBundles)
        } throws: { error in
            guard let error = error as? InspectionError, case let .unrecognized(_, evidence) = error else { return false }
            return evidence.hasPrefix("a zip archive that is not an .ipa")
        }
        #expect {
            try inspector.inspect(path: work.path)
        } throws: { error in
            guard let error = error as? InspectionError, case let .unrecognized(_, evidence) = error else { return false }
            return evidence.hasPrefix("a folder that is not an .app, .xcarchive or .dSYM bundle")
        }
        #expect(throws: InspectionError.self) { try inspector.inspect(path: work.child("missing")) }
    }

    @Test func bytesInMemoryAreInspectedLikeFiles() throws {
        let (inspector, work) = try Self.inspector()
        defer { withExtendedLifetime(work) {} }
        let ipa = try inspector.inspect(bytes: [UInt8](try LocalFixtures.data("formats/app/Beta.ipa")), path: "upload.bin")
        #expect(ipa.kind == .ipa && ipa.path == "upload.bin")
        let reply = try inspector.inspect(bytes: [UInt8](try LocalFixtures.data("inspect/enrollment/reply-iphone.der")), path: "reply")
        guard case let .enrollmentReply(summary) = reply.summary else { Issue.record("not a reply"); return }
        #expect(summary.udid == "00008110-000A1B2C3D4E5F60" && summary.family == "iphone")
        #expect(summary.signer?.expired == true, "reported, not refused")
    }

    @Test func theJSONFormIsOneObjectWithPathKindAndTheKindsFields() throws {
        let (inspector, work) = try Self.inspector()
        defer { withExtendedLifetime(work) {} }
        let inspection = try inspector.inspect(path: LocalFixtures.url("formats/profiles/beta_adhoc.mobileprovision").path)
        let data = try JSONEncoder().encode(inspection)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["kind"] as? String == "provisioning-profile")
        #expect((object["path"] as? String)?.hasSuffix("beta_adhoc.mobileprovision") == true)
        #expect(object["type"] as? String == "ad-hoc")
        #expect(object["devices"] as? Int == 3)
        #expect((object["entitlements"] as? [String: Any])?["get-task-allow"] as? Bool == false)
        #expect(((object["certificates"] as? [[String: Any]])?.first?["sha1"] as? String)?.count == 40)
    }
}
