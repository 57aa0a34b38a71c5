import AppleFormats
@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// `release` verifies the code signature as iOS would, naming the file that breaks it.
@Suite("Release signature verification")
struct ReleaseSignatureTests {
    /// The fixture xcarchive unzipped into `work`, as a directory input.
    static func unzippedArchive(_ work: TemporaryDirectory) throws -> String {
        let result = try runToolNow("unzip", ["-q", LocalFixtures.url("formats/app/Beta.xcarchive.zip").path, "-d", work.child("unzipped")])
        #expect(result.status == 0, "\(result.error)")
        return work.child("unzipped/Beta.xcarchive")
    }

    static func validate(_ path: String, _ work: TemporaryDirectory, policy: ReleasePolicy = ReleasePolicy()) throws -> ReleaseValidation {
        let build = try ArtifactIngestor(workDirectory: work.path).ingest(path: path)
        return ReleaseValidator.validate(build: build, availableSymbols: build.symbolKeys, devices: [], policy: policy, now: FormatsFixtures.now)
    }

    @Test("The fixture builds carry real signatures: CMS by the profile's certificate, sealed resources and nested code")
    func fixturesVerify() throws {
        let work = try TemporaryDirectory()
        for name in ["Beta.ipa", "Beta.xcarchive.zip"] {
            let build = try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/\(name)").path)
            let signature = try #require(build.app?.signature)
            #expect(signature.problems == [], "\(name)")
            #expect(signature.executables.count == 2)
            let signers = Set(signature.executables.flatMap { $0.slices.compactMap { $0.signer?.subject.commonName } })
            #expect(signers == ["iPhone Distribution: Beta Fixtures (ABCDE12345)"])
        }
    }

    @Test("A changed Info.plist is refused: \"Payload/App.app/Info.plist changed after signing\"")
    func infoPlistChanged() throws {
        let work = try TemporaryDirectory()
        let archive = try Self.unzippedArchive(work)
        let info = archive + "/Products/Applications/Beta.app/Info.plist"
        var plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: info)), format: nil) as? [String: Any])
        plist["CFBundleVersion"] = "46"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: URL(fileURLWithPath: info))
        let result = try Self.validate(archive, work)
        #expect(result.refusals.map(\.description) == [
            "Beta.xcarchive/Products/Applications/Beta.app/Info.plist changed after signing (the signature of Beta.xcarchive/Products/Applications/Beta.app/Beta seals it): re-export the build from Xcode",
        ])
    }

    @Test("A changed widget executable is refused twice over: its own page hashes and the app's seal of its CDHash")
    func nestedCodeChanged() throws {
        let work = try TemporaryDirectory()
        let archive = try Self.unzippedArchive(work)
        let widget = archive + "/Products/Applications/Beta.app/PlugIns/BetaWidget.appex/BetaWidget"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: widget)))
        bytes[600] ^= 0xff
        try Data(bytes).write(to: URL(fileURLWithPath: widget))
        let refusals = try Self.validate(archive, work).refusals.map(\.description)
        #expect(refusals.contains("Beta.xcarchive/Products/Applications/Beta.app/PlugIns/BetaWidget.appex/BetaWidget changed after signing (the arm64 code page 0 no longer matches its hash): re-export the build from Xcode"))
    }

    @Test("In a zipped build, a resource changed after signing is refused by name, by release and check-signature alike (hashed on two threads)")
    func zippedResourceChanged() throws {
        let work = try TemporaryDirectory()
        let script = """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as target:
            for info in source.infolist():
                data = source.read(info)
                if info.filename == "Payload/Beta.app/AppIcon60x60@2x.png":
                    data = data[:-1] + bytes([data[-1] ^ 1])
                target.writestr(info, data)
        """
        let edited = work.child("Edited.ipa")
        let made = try runToolNow("python3", ["-c", script, LocalFixtures.url("formats/app/Beta.ipa").path, edited])
        #expect(made.status == 0, "\(made.error)")
        let expected = CodeSignatureProblem(path: "Payload/Beta.app/AppIcon60x60@2x.png", cause: .resourceChanged)
        #expect(try CodeSignatureChecker(workDirectory: work.path).check(path: edited).problems == [expected])
        let refusals = try Self.validate(edited, work).refusals.map(\.description)
        #expect(refusals.contains(expected.description), "\(refusals)")
    }

    @Test("A resource added after signing is refused by name")
    func resourceAdded() throws {
        let work = try TemporaryDirectory()
        let archive = try Self.unzippedArchive(work)
        try Data("x".utf8).write(to: URL(fileURLWithPath: archive + "/Products/Applications/Beta.app/extra.json"))
        let refusals = try Self.validate(archive, work).refusals.map(\.description)
        #expect(refusals == ["Beta.xcarchive/Products/Applications/Beta.app/extra.json was added after signing, so the bundle's signature does not seal it: remove it or re-export the build from Xcode"])
    }

    @Test("A signing certificate missing from the embedded profile's DeveloperCertificates is refused naming the signer",
          .enabled(if: SharedFixtures.available))
    func signerNotInProfile() throws {
        let work = try TemporaryDirectory()
        let archive = try Self.unzippedArchive(work)
        // Someone else's profile: none of its certificates signed this build.
        let embedded = archive + "/Products/Applications/Beta.app/embedded.mobileprovision"
        try FileManager.default.removeItem(atPath: embedded)
        try FileManager.default.copyItem(atPath: SharedFixtures.url("profiles/adhoc_2021_Ververtom_WebclipTest.mobileprovision").path, toPath: embedded)
        let report = try CodeSignatureChecker(workDirectory: work.path).check(path: archive)
        let refusals = report.problems.filter { if case .signerNotInProfile = $0.cause { true } else { false } }
        #expect(refusals.map(\.path) == ["Beta.xcarchive/Products/Applications/Beta.app/Beta"])
        #expect(refusals.first?.description.contains("is signed by \"") == true)
        #expect(refusals.first?.description.contains("iPhone Distribution: Beta Fixtures (ABCDE12345)") == true)
        #expect(report.problems.contains(CodeSignatureProblem(path: embedded.replacingOccurrences(of: work.child("unzipped") + "/", with: ""), cause: .resourceChanged)))
    }

    @Test("--allow-unsigned is refused for a device build and lets a simulator build through with a warning")
    func allowUnsigned() throws {
        let work = try TemporaryDirectory()
        let archive = try Self.unzippedArchive(work)
        try Data("x".utf8).write(to: URL(fileURLWithPath: archive + "/Products/Applications/Beta.app/extra.json"))
        let device = try Self.validate(archive, work, policy: ReleasePolicy(allowUnsigned: true))
        #expect(device.refusals.map(\.description).first == "Beta.xcarchive/Products/Applications/Beta.app is a device build: --allow-unsigned is only for simulator builds, since iOS devices refuse a build whose signature does not verify; release the build Xcode exported with its signature intact")
        #expect(device.refusals.count == 2)

        var build = try ArtifactIngestor(workDirectory: work.path).ingest(path: archive)
        var app = try #require(build.app)
        for index in app.executables.indices {
            for slice in app.executables[index].slices.indices { app.executables[index].slices[slice].platform = "iOS Simulator" }
        }
        build.app = app
        #expect(app.isSimulatorBuild)
        let simulator = ReleaseValidator.validate(build: build, availableSymbols: build.symbolKeys, devices: [],
                                                  policy: ReleasePolicy(allowUnsigned: true), now: FormatsFixtures.now)
        #expect(simulator.refusals == [])
        #expect(simulator.warnings.contains(.releasedUnsigned(bundle: "Beta.xcarchive/Products/Applications/Beta.app")))
        let refused = ReleaseValidator.validate(build: build, availableSymbols: build.symbolKeys, devices: [], now: FormatsFixtures.now)
        #expect(refused.refusals.map(\.description).contains { $0.contains("extra.json was added after signing") })
    }
}
