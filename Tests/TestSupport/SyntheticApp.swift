import Foundation

/// A synthetic iOS app built with clang and ld64.lld (`-target arm64-apple-ios15.0`), every
/// Mach-O carrying only the linker's ad hoc signature: a fat main executable (arm64 and arm64e),
/// a framework holding a versioned `Versions/Current -> A` folder and `Headers ->
/// Versions/Current/Headers` links, a loose dylib, an app extension, a watch app, and resources
/// with a file link and a folder link.
public enum SyntheticApp {
    /// Whether the tools it needs (clang, ld64.lld-19, llvm-lipo-19) are installed.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ld64.lld-19") && FileManager.default.isExecutableFile(atPath: "/usr/bin/llvm-lipo-19")
    }

    /// The symbolic links of the app, by path relative to it, and their targets.
    public static let links: [String: String] = [
        "Resources/current.txt": "data.txt",
        "Resources/Latest": "Versions/2",
        "Frameworks/Kit.framework/Versions/Current": "A",
        "Frameworks/Kit.framework/Headers": "Versions/Current/Headers",
    ]

    /// Links `source` into `output` (a thin arm64 image with the linker's ad hoc signature).
    public static func link(_ work: TemporaryDirectory, _ source: String, _ output: String, platform: String = "ios", dylib: String? = nil) throws {
        let name = (output as NSString).lastPathComponent
        try source.write(toFile: work.child(name + ".c"), atomically: true, encoding: .utf8)
        let target = platform == "ios" ? "arm64-apple-ios15.0" : "arm64-apple-watchos8.0"
        try run("clang", ["-target", target, "-c", work.child(name + ".c"), "-o", work.child(name + ".o")])
        var arguments = ["-arch", "arm64", "-platform_version", platform, platform == "ios" ? "15.0" : "8.0", platform == "ios" ? "15.0" : "8.0",
                         "-adhoc_codesign", "-o", output, work.child(name + ".o")]
        if let dylib { arguments += ["-dylib", "-install_name", dylib] }
        try run("ld64.lld-19", arguments)
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try runToolNow(tool, arguments)
        guard result.status == 0 else { throw ResigningFixtures.ToolFailure(message: "\(tool) failed: \(result.error)") }
    }

    static func plist(_ values: [String: Any], to path: String) throws {
        try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
    }

    static func info(_ identifier: String, _ executable: String, package: String = "APPL") -> [String: Any] {
        ["CFBundleIdentifier": identifier, "CFBundleExecutable": executable, "CFBundlePackageType": package,
         "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "MinimumOSVersion": "15.0"]
    }

    /// Builds the app as `folder/App.app` (scratch files go to `work`) and returns its path.
    public static func build(_ work: TemporaryDirectory, in folder: String? = nil) throws -> String {
        let app = (folder ?? work.path) + "/App.app"
        let manager = FileManager.default
        for folder in ["Frameworks/Kit.framework/Versions/A/Headers", "PlugIns/Ext.appex", "Watch/Watch.app", "Resources/Versions/2"] {
            try manager.createDirectory(atPath: app + "/" + folder, withIntermediateDirectories: true)
        }
        // A fat main executable: arm64 and the same image marked arm64e.
        try link(work, "int main(void) { return 0; }\n", work.child("App-arm64"))
        var arm64e = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("App-arm64"))))
        arm64e[8] = 2; arm64e[11] = 0x80
        try Data(arm64e).write(to: URL(fileURLWithPath: work.child("App-arm64e")))
        try run("llvm-lipo-19", ["-create", work.child("App-arm64"), work.child("App-arm64e"), "-output", app + "/App"])
        try plist(info("com.example.synthetic", "App"), to: app + "/Info.plist")
        try link(work, "int kit(void) { return 1; }\n", app + "/Frameworks/Kit.framework/Kit", dylib: "@rpath/Kit.framework/Kit")
        try plist(info("com.example.kit", "Kit", package: "FMWK"), to: app + "/Frameworks/Kit.framework/Info.plist")
        try Data("int kit(void);\n".utf8).write(to: URL(fileURLWithPath: app + "/Frameworks/Kit.framework/Versions/A/Headers/Kit.h"))
        try link(work, "int extra(void) { return 2; }\n", app + "/Frameworks/libExtra.dylib", dylib: "@rpath/libExtra.dylib")
        try link(work, "int main(void) { return 3; }\n", app + "/PlugIns/Ext.appex/Ext")
        try plist(info("com.example.synthetic.ext", "Ext", package: "XPC!"), to: app + "/PlugIns/Ext.appex/Info.plist")
        try link(work, "int main(void) { return 4; }\n", app + "/Watch/Watch.app/Watch", platform: "watchos")
        try plist(info("com.example.synthetic.watchkitapp", "Watch"), to: app + "/Watch/Watch.app/Info.plist")
        try Data("data".utf8).write(to: URL(fileURLWithPath: app + "/Resources/data.txt"))
        try Data("second".utf8).write(to: URL(fileURLWithPath: app + "/Resources/Versions/2/notes.txt"))
        for (path, target) in links.sorted(by: { $0.key < $1.key }) {
            try manager.createSymbolicLink(atPath: app + "/" + path, withDestinationPath: target)
        }
        return app
    }
}
