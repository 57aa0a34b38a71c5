// TEMPORARY stand-in until the build-tool plugin generates this enum.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum DemoFiles {
    static let files: [String: [UInt8]] = {
        var root = #filePath
        for _ in 0 ..< 4 { root = String(root[..<(root.lastIndex(of: "/") ?? root.endIndex)]) }
        var result: [String: [UInt8]] = [:]
        for name in ["Beta.ipa", "Beta.app.dSYM.zip", "BetaWidget.appex.dSYM.zip", "Beta.xcarchive.zip"] {
            if let data = FileManager.default.contents(atPath: root + "/Tests/Fixtures/formats/app/" + name) { result[name] = Array(data) }
        }
        return result
    }()
}
