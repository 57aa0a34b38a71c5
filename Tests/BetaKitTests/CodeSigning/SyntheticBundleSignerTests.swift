import AppleFormats
@testable import BetaKit
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// A synthetic app built with clang and ld64.lld (`-target arm64-apple-ios15.0`): a fat main
/// executable, a framework, a loose dylib, an app extension, a watch app and symbolic links
/// (see `SyntheticApp`), signed innermost first and verified as a whole.
@Suite("Synthetic bundle signing", .enabled(if: OpenSSLTool.available && SyntheticApp.available))
struct SyntheticBundleSignerTests {
    /// Builds the app under `work/App.app` (see `SyntheticApp`).
    static func build(_ work: TemporaryDirectory) throws -> String {
        try SyntheticApp.build(work)
    }

    static func signer(_ work: TemporaryDirectory) throws -> BundleSigner {
        try ResigningFixtures.make(in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("new.mobileprovision"))))
        let identity = try CMSSigningIdentity(certificates: [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("cert.pem")))),
                                              privateKey: [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("key.pem")))))
        return BundleSigner(cms: try LibcryptoCodeSigner(identity: identity), profile: try ProvisioningProfile(bytes: bytes), profileBytes: bytes)
    }

    @Test("Signed innermost first, every executable verifies, nested code is sealed by CDHash and the link by its target")
    func signsAndVerifies() throws {
        let work = try TemporaryDirectory()
        let app = try Self.build(work)
        try Self.signer(work).sign(appAt: app, name: "App.app")
        let report = try CodeSignatureChecker(workDirectory: work.path).check(path: app)
        #expect(report.problems == [], "\(report.problems)")
        #expect(report.executables.map(\.path) == ["App.app/Frameworks/Kit.framework/Kit", "App.app/PlugIns/Ext.appex/Ext",
                                                    "App.app/Watch/Watch.app/Watch", "App.app/Frameworks/libExtra.dylib", "App.app/App"])
        #expect(report.executables.last?.slices.map(\.architecture) == ["arm64", "arm64e"])
        let resources = try PlistValue(parsing: try [UInt8](Data(contentsOf: URL(fileURLWithPath: app + "/_CodeSignature/CodeResources"))))
        let files2 = try #require(resources.dictionary?["files2"]?.dictionary)
        #expect(files2["Frameworks/Kit.framework"]?.dictionary?["cdhash"]?.data?.count == 20)
        #expect(files2["Watch/Watch.app"]?.dictionary?["cdhash"] != nil)
        #expect(files2["Resources/current.txt"]?.dictionary?["symlink"] == .string("data.txt"))
        #expect(files2["Resources/Latest"]?.dictionary?["symlink"] == .string("Versions/2"))
        let kitResources = try PlistValue(parsing: try [UInt8](Data(contentsOf: URL(fileURLWithPath: app + "/Frameworks/Kit.framework/_CodeSignature/CodeResources"))))
        let kitFiles2 = try #require(kitResources.dictionary?["files2"]?.dictionary)
        #expect(kitFiles2["Headers"]?.dictionary?["symlink"] == .string("Versions/Current/Headers"))
        #expect(kitFiles2["Versions/Current"]?.dictionary?["symlink"] == .string("A"))
        #expect(kitFiles2["Versions/A/Headers/Kit.h"]?.dictionary?["hash2"] != nil)
        #expect(FileManager.default.fileExists(atPath: app + "/Watch/Watch.app/embedded.mobileprovision"))
        #expect(!FileManager.default.fileExists(atPath: app + "/Frameworks/Kit.framework/embedded.mobileprovision"))

        // The link pointed elsewhere afterwards is refused by name.
        try FileManager.default.removeItem(atPath: app + "/Resources/current.txt")
        try FileManager.default.createSymbolicLink(atPath: app + "/Resources/current.txt", withDestinationPath: "/etc/hosts")
        let changed = try CodeSignatureChecker(workDirectory: work.path).check(path: app)
        #expect(changed.problems == [CodeSignatureProblem(path: "App.app/Resources/current.txt", cause: .symbolicLinkChanged(expected: "data.txt")),
                                     CodeSignatureProblem(path: "App.app/Resources/current.txt", cause: .symbolicLinkOutsideBundle(target: "/etc/hosts"))])
    }

    @Test("A link leading out of the bundle is refused by name before anything is signed")
    func refusesALinkOutOfTheBundle() throws {
        let work = try TemporaryDirectory()
        let app = try Self.build(work)
        try FileManager.default.createSymbolicLink(atPath: app + "/Frameworks/Kit.framework/Shared", withDestinationPath: "../../Resources")
        #expect {
            try Self.signer(work).sign(appAt: app, name: "Payload/App.app")
        } throws: { error in
            (error as? ResignError) == .linkOutsideBundle(path: "Payload/App.app/Frameworks/Kit.framework/Shared", target: "../../Resources")
                && "\(error)".contains("make it a relative link to a file inside the bundle")
        }
        #expect(!FileManager.default.fileExists(atPath: app + "/_CodeSignature/CodeResources"), "the app itself was not signed")
    }
}
