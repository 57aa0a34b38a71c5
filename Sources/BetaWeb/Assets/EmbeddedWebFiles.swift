// TEMPORARY stand-in until the build-tool plugin generates this enum: reads the repository's files.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit

enum EmbeddedWebFiles {
    static let files: [String: [UInt8]] = {
        var root = #filePath
        for _ in 0 ..< 4 { root = String(root[..<(root.lastIndex(of: "/") ?? root.endIndex)]) }
        var result: [String: [UInt8]] = [:]
        for folder in ["Templates", "web"] {
            for (relative, bytes) in (try? WebAssets.readTree(root + "/" + folder, option: folder)) ?? [] {
                result[folder + "/" + relative] = bytes
            }
        }
        return result
    }()
}
