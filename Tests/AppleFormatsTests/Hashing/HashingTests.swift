import Foundation
import Testing
import TestSupport
@testable import AppleFormats

@Suite struct HashingTests {
    static let twoBlockMessage = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    @Test func sha256MatchesNISTVectors() {
        #expect(SHA256.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash([]).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(Array(Self.twoBlockMessage.utf8)).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0 ..< 1000 { million.update(chunk) }
        #expect(million.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha1MatchesNISTVectors() {
        #expect(SHA1.hash(Array("abc".utf8)).hex == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hash([]).hex == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hash(Array(Self.twoBlockMessage.utf8)).hex == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        var million = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0 ..< 1000 { chunk.withUnsafeBytes { million.update($0) } }
        #expect(million.finalize().hex == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func incrementalUpdatesAtEveryPaddingBoundaryMatchOneShot() {
        // Lengths around 55/56/64 exercise the one- and two-block padding paths.
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let message = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let whole = SHA256.hash(message)
            var pieces = SHA256()
            var index = 0
            var step = 1
            while index < message.count {
                let end = min(message.count, index + step)
                pieces.update(Array(message[index ..< end]))
                index = end
                step = step % 70 + 3
            }
            #expect(pieces.finalize() == whole, "length \(length)")
        }
    }

    @Test func sha1AgreesWithSha1sumWhateverTheChunking() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 300_001).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha1-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try runToolNow("sha1sum", [url.path]).output
        let expected = String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(SHA1.hash(bytes).hex == expected)
        for step in [1, 63, 64, 65, 4097] {
            var pieces = SHA1()
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + step)
                bytes[index ..< end].withUnsafeBytes { pieces.update($0) }
                index = end
            }
            #expect(pieces.finalize().hex == expected, "chunks of \(step)")
        }
    }

    @Test func sha256AgreesWithSha256sumOnAFile() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 300_001).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try runToolNow("sha256sum", [url.path]).output
        let expected = String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(SHA256.hash(bytes).hex == expected)
    }

    @Test func digestHexRoundTripsAndRejectsGarbage() throws {
        let digest = SHA1.hash(Array("abc".utf8))
        #expect(HashDigest(hex: digest.hex) == digest)
        #expect(HashDigest(hex: digest.hex.uppercased()) == digest)
        #expect(HashDigest(hex: "abc") == nil)
        #expect(HashDigest(hex: "zz") == nil)
        #expect(digest.colonSeparatedHex.hasPrefix("A9:99:3E:36"))
    }
}
