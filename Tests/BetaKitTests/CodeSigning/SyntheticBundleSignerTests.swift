import AppleFormats
@testable import BetaKit
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// A synthetic app built with clang and ld64.lld (`-target arm64-apple-ios15.0`): a fat main
/// executable, a framework, a loose dylib, an app extension, a watch app and a symbolic link,
/// signed innermost first and verified as a whole.
@Suite("Synthetic bundle signing", .enabled(if: OpenSSLTool.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/ld64.lld-19")))
struct SyntheticBundleSignerTests {
    /// Links `source` into `output` (a thin arm64 image with the linker's ad hoc signature).
    static func link(_ work: TemporaryDirectory, _ source: String, _ output: String, platform: String = "ios", dylib: String? = nil) throws {
        let name = (output as NSString).lastPathComponent
        try source.write(toFile: work.child(name + ".c"), atomically: true, encoding: .utf8)
        let target = platform == "ios" ? "arm64-apple-ios15.0" : "arm64-apple-watchos8.0"
        let compiled = try runToolNow("clang", ["-target", target, "-c", work.child(name + ".c"), "-o", work.child(name + ".o")])
        #expect(compiled.status == 0, "\(compiled.error)")
        var arguments = ["-arch", "arm64", "-platform_version", platform, platform == "ios" ? "15.0" : "8.0", platform == "ios" ? "15.0" : "8.0",
                         "-adhoc_codesign", "-o", output, work.child(name + ".o")]
        if let dylib { arguments += ["-dylib", "-install_name", dylib] }
        let linked = try runToolNow("ld64.lld-19", arguments)
        #expect(linked.status == 0, "\(linked.error)")
    }

    static func plist(_ values: [String: Any], to path: String) throws {
        try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
    }

    static func info(_ identifier: String, _ executable: String, package: String = "APPL") -> [String: Any] {
        ["CFBundleIdentifier": identifier, "CFBundleExecutable": executable, "CFBundlePackageType": package,
         "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "MinimumOSVersion": "15.0"]
    }

    /// Builds the app under `work/App.app`.
    static func build(_ work: TemporaryDirectory) throws -> String {
        let app = work.child("App.app")
        let manager = FileManager.default
        for folder in ["Frameworks/Kit.framework", "PlugIns/Ext.appex", "Watch/Watch.app", "Resources"] {
            try manager.createDirectory(atPath: app + "/" + folder, withIntermediateDirectories: true)
        }
        // A fat main executable: arm64 and the same image marked arm64e.
        try link(work, "int main(void) { return 0; }\n", work.child("App-arm64"))
        var arm64e = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("App-arm64"))))
        arm64e[8] = 2; arm64e[11] = 0x80
        try Data(arm64e).write(to: URL(fileURLWithPath: work.child("App-arm64e")))
        let lipo = try runToolNow("llvm-lipo-19", ["-create", work.child("App-arm64"), work.child("App-arm64e"), "-output", app + "/App"])
        #expect(lipo.status == 0, "\(lipo.error)")
        try plist(info("com.example.synthetic", "App"), to: app + "/Info.plist")
        try link(work, "int kit(void) { return 1; }\n", app + "/Frameworks/Kit.framework/Kit", dylib: "@rpath/Kit.framework/Kit")
        try plist(info("com.example.kit", "Kit", package: "FMWK"), to: app + "/Frameworks/Kit.framework/Info.plist")
        try link(work, "int extra(void) { return 2; }\n", app + "/Frameworks/libExtra.dylib", dylib: "@rpath/libExtra.dylib")
        try link(work, "int main(void) { return 3; }\n", app + "/PlugIns/Ext.appex/Ext")
        try plist(info("com.example.synthetic.ext", "Ext", package: "XPC!"), to: app + "/PlugIns/Ext.appex/Info.plist")
        try link(work, "int main(void) { return 4; }\n", app + "/Watch/Watch.app/Watch", platform: "watchos")
        try plist(info("com.example.synthetic.watchkitapp", "Watch"), to: app + "/Watch/Watch.app/Info.plist")
        try Data("data".utf8).write(to: URL(fileURLWithPath: app + "/Resources/data.txt"))
        try manager.createSymbolicLink(atPath: app + "/Resources/current.txt", withDestinationPath: "data.txt")
        return app
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
        #expect(FileManager.default.fileExists(atPath: app + "/Watch/Watch.app/embedded.mobileprovision"))
        #expect(!FileManager.default.fileExists(atPath: app + "/Frameworks/Kit.framework/embedded.mobileprovision"))

        // The link pointed elsewhere afterwards is refused by name.
        try FileManager.default.removeItem(atPath: app + "/Resources/current.txt")
        try FileManager.default.createSymbolicLink(atPath: app + "/Resources/current.txt", withDestinationPath: "/etc/hosts")
        let changed = try CodeSignatureChecker(workDirectory: work.path).check(path: app)
        #expect(changed.problems == [CodeSignatureProblem(path: "App.app/Resources/current.txt", cause: .symbolicLinkChanged(expected: "data.txt"))])
    }
}
