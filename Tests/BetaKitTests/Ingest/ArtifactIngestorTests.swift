import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct ArtifactIngestorTests {
    struct Expected: Decodable {
        var Beta: [String: String]
        var BetaWidget: [String: String]
        var BetaRebuilt: [String: String]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: LocalFixtures.data("formats/app/expected.json"))
    }

    static func ingest(_ path: String, in directory: TemporaryDirectory) throws -> IngestedArtifact {
        try ArtifactIngestor(workDirectory: directory.path).ingest(path: path)
    }

    static func uuids(_ slices: [IngestedSlice]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: slices.map { ($0.architecture.name, $0.uuid?.uuidString ?? "") })
    }

    @Test func ingestsIpaWithAppExtensionProfilesSlicesEntitlementsAndIcon() throws {
        let work = try TemporaryDirectory()
        let path = LocalFixtures.url("formats/app/Beta.ipa").path
        let artifact = try Self.ingest(path, in: work)
        let expected = try Self.expected()
        #expect(artifact.kind == .ipa)
        let app = try #require(artifact.app)
        #expect(app.bundlePath == "Payload/Beta.app")
        #expect(app.info.bundleIdentifier == "com.example.beta")
        #expect(app.info.shortVersion == "1.2.3" && app.info.buildVersion == "45")
        #expect(app.profile?.name == "Beta Ad Hoc")
        #expect(app.problems.isEmpty)
        #expect(app.executables.map(\.kind) == [.app, .appExtension])
        let main = app.executables[0], widget = app.executables[1]
        #expect(main.path == "Payload/Beta.app/Beta")
        #expect(Self.uuids(main.slices) == expected.Beta)
        #expect(main.slices.map(\.minimumOS) == ["15.0", "15.0"])
        #expect(main.slices.first?.entitlements?["aps-environment"] == .string("production"))
        #expect(widget.bundleIdentifier == "com.example.beta.widget")
        #expect(widget.profile?.name == "Beta Widget Ad Hoc (wildcard)")
        #expect(Self.uuids(widget.slices) == expected.BetaWidget)
        let icon = try #require(app.iconPNG)
        #expect(!PNGImage.isCgBI(icon))
        let decoded = try PNGImage(bytes: icon)
        #expect(decoded.width == 120 && decoded.height == 120)
        // The whole-file digest matches sha256sum's answer computed independently.
        #expect(artifact.sha256 == SHA256.hash([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        // Executables were extracted only temporarily.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    @Test func ingestsZippedAndDirectoryXcarchivesWithTheirDSYMs() throws {
        let work = try TemporaryDirectory()
        let zipped = try Self.ingest(LocalFixtures.url("formats/app/Beta.xcarchive.zip").path, in: work)
        let expected = try Self.expected()
        #expect(zipped.kind == .xcarchive)
        #expect(zipped.app?.bundlePath == "Beta.xcarchive/Products/Applications/Beta.app")
        #expect(zipped.dwarfFiles.map(\.bundlePath) == ["Beta.xcarchive/dSYMs/Beta.app.dSYM", "Beta.xcarchive/dSYMs/BetaWidget.appex.dSYM"])
        #expect(Self.uuids(zipped.dwarfFiles[0].slices) == expected.Beta)
        // Extracted DWARF files stay for the archive to adopt.
        for file in zipped.dwarfFiles {
            let extracted = try #require(zipped.dwarfLocations[file.path])
            #expect(FileManager.default.fileExists(atPath: extracted))
        }
        // Extract with Python's zipfile (an independent reader) and ingest the directory form.
        let unzipped = work.child("unzipped")
        try FileManager.default.createDirectory(atPath: unzipped, withIntermediateDirectories: true)
        try Self.run("/usr/bin/env", ["python3", "-m", "zipfile", "-e", LocalFixtures.url("formats/app/Beta.xcarchive.zip").path, unzipped])
        let directory = try Self.ingest(unzipped + "/Beta.xcarchive", in: work)
        #expect(directory.kind == .xcarchive)
        #expect(directory.sha256 == nil)
        #expect(directory.app?.executables.map(\.slices) == zipped.app?.executables.map(\.slices))
        #expect(directory.dwarfFiles.map(\.slices) == zipped.dwarfFiles.map(\.slices))
        // Directory inputs are read in place.
        #expect(directory.dwarfLocations["Beta.xcarchive/dSYMs/Beta.app.dSYM/Contents/Resources/DWARF/Beta"] == unzipped + "/Beta.xcarchive/dSYMs/Beta.app.dSYM/Contents/Resources/DWARF/Beta")
    }

    @Test func ingestsZippedAndDirectoryDSYMs() throws {
        let work = try TemporaryDirectory()
        let rebuilt = try Self.ingest(LocalFixtures.url("formats/app/Beta-rebuilt.app.dSYM.zip").path, in: work)
        #expect(rebuilt.kind == .dsym)
        #expect(rebuilt.app == nil)
        #expect(rebuilt.dwarfFiles.map(\.path) == ["Beta.app.dSYM/Contents/Resources/DWARF/Beta"])
        #expect(Self.uuids(rebuilt.dwarfFiles[0].slices) == (try Self.expected()).BetaRebuilt)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func ingestsRealDSYMDirectory() throws {
        let work = try TemporaryDirectory()
        let artifact = try Self.ingest(SharedFixtures.url("crash/crashprobe/arm64-CrashProbeiOS.app.dSYM").path, in: work)
        #expect(artifact.kind == .dsym)
        #expect(artifact.dwarfFiles.count == 1)
        #expect(artifact.dwarfFiles.first?.bundlePath == "arm64-CrashProbeiOS.app.dSYM")
        #expect(artifact.dwarfFiles.first?.slices.map(\.architecture) == [.arm64])
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsFastlaneIpasAndReportsWhatIsMissing() throws {
        let work = try TemporaryDirectory()
        let watch = try Self.ingest(SharedFixtures.url("ipas/ContainsWatchApp.ipa").path, in: work)
        let app = try #require(watch.app)
        #expect(app.bundlePath == "ContainsWatchApp/Payload/Sample.app")
        #expect(app.info.bundleIdentifier.isEmpty == false)
        #expect(app.problems.contains { $0.message.hasPrefix("has no embedded.mobileprovision") })
        #expect(app.problems.contains { $0.message.contains("the executable \"Sample\" named by CFBundleExecutable is missing") })
        #expect(app.problems.contains { $0.path.hasSuffix("Watch/Sample WatchKit App.app") })
        let wrong = try Self.ingest(SharedFixtures.url("ipas/IncorrectlySigned.ipa").path, in: work)
        #expect(wrong.app?.problems.contains { $0.path.hasSuffix("Sample WatchKit App.app") && $0.message.hasPrefix("has no Info.plist") } == true)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func refusesNotAnIpaAndIpaWithoutAppBundle() throws {
        let work = try TemporaryDirectory()
        let notZip = SharedFixtures.url("ipas/not-an-ipa.ipa").path
        let error = #expect(throws: IngestError.self) { try Self.ingest(notZip, in: work) }
        #expect(error?.description == "\(notZip): not a zip archive: the file is only 15 bytes long; an .ipa must be the zip file Xcode exports (check that the file was copied completely)")
        let empty = SharedFixtures.url("ipas/no-app-bundle.ipa").path
        let noApp = #expect(throws: IngestError.self) { try Self.ingest(empty, in: work) }
        #expect(noApp?.description.hasPrefix("\(empty) contains no app bundle (its Payload folder has no .app inside)") == true)
        let missing = #expect(throws: IngestError.self) { try Self.ingest(work.child("nope.ipa"), in: work) }
        #expect(missing?.description == "\(work.child("nope.ipa")) does not exist; pass the path of an .ipa, an .xcarchive or a .dSYM")
    }

    @Test func refusesHostileZipsBeforeExtractingAnything() throws {
        let work = try TemporaryDirectory()
        let traversal = LocalFixtures.url("formats/zip/traversal.zip").path
        let error = #expect(throws: IngestError.self) { try Self.ingest(traversal, in: work) }
        #expect(error?.description.contains("contains a \"..\" component") == true)
        let bomb = LocalFixtures.url("formats/zip/bomb_ratio.zip").path
        let bombError = #expect(throws: IngestError.self) { try Self.ingest(bomb, in: work) }
        #expect(bombError?.description.contains("possible zip bomb") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    @Test func refusesZipsHoldingNoBuild() throws {
        let work = try TemporaryDirectory()
        let path = LocalFixtures.url("formats/zip/mixed.zip").path
        let error = #expect(throws: IngestError.self) { try Self.ingest(path, in: work) }
        #expect(error?.description == "\(path) is not an .ipa, .xcarchive or .dSYM: the zip holds neither Payload/<Name>.app, an .xcarchive nor a .dSYM")
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        guard try runToolNow(tool, arguments).status == 0 else { throw CocoaError(.fileReadUnknown) }
    }
}
