import Foundation
import Testing
import TestSupport
@testable import AppleFormats

/// A 4.4 MB ipa declaring 3 GB in entries under 1 MiB each cost seconds of CPU before it was
/// refused: the ratio now covers every entry and the archive as a whole, before any inflating.
@Suite struct ZipSmallEntryBombTests {
    /// An archive of `count` entries of `size` zero bytes each, deflated.
    static func zeros(count: Int, size: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var writer = ZipWriter { bytes.append(contentsOf: $0) }
        let zeros = [UInt8](repeating: 0, count: size)
        for index in 0 ..< count {
            try writer.addFile("Payload/App.app/z\(index).bin") { deliver in try zeros.withUnsafeBytes { try deliver($0) } }
        }
        try writer.close()
        return bytes
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ZipArchive(source: ZipMemorySource(bytes))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func entriesUnderAMebibyteAreHeldToTheRatio() throws {
        let bomb = try Self.zeros(count: 40, size: 1000 << 10)
        #expect(bomb.count < 100_000, "1000 KB of zeros deflate to about a kilobyte")
        let message = try #require(Self.refusal(bomb))
        #expect(message.hasPrefix("the zip archive is refused as a possible zip bomb: \"Payload/App.app/z0.bin\" would expand"), "\(message)")
        #expect(message.contains("limit 200:1"))
    }

    @Test func manySmallEntriesAreHeldToTheRatioTogether() throws {
        // Each 60 KB of zeros is within its own allowance; 200 of them are 12 MB from a few dozen KB.
        let bomb = try Self.zeros(count: 200, size: 60 << 10)
        let message = try #require(Self.refusal(bomb))
        #expect(message.contains("its 200 entries would expand") && message.contains("overall, limit 200:1"), "\(message)")
    }

    @Test func smallCompressibleFilesOfARealBuildPass() throws {
        // Plists, strings and empty-ish files: each compresses very well, the archive as a whole does not.
        var bytes: [UInt8] = []
        var writer = ZipWriter { bytes.append(contentsOf: $0) }
        for index in 0 ..< 20 {
            try writer.addFile("Payload/App.app/empty\(index).plist") { deliver in try [UInt8](repeating: 0x20, count: 8 << 10).withUnsafeBytes { try deliver($0) } }
        }
        var random = SystemRandomNumberGenerator()
        let executable = (0 ..< (600 << 10)).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        try writer.addFile("Payload/App.app/App") { deliver in try executable.withUnsafeBytes { try deliver($0) } }
        try writer.close()
        #expect(Self.refusal(bytes) == nil)
        #expect(Self.refusal(try Self.zeros(count: 1, size: 60 << 10)) == nil, "one small file of zeros")
    }
}
