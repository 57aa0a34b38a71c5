import Foundation
import Testing
import TestSupport
import AppleFormats
@testable import Multipart

/// Where part bodies go: memory up to the threshold, 0600 files beyond, removed on failure
/// and on drop unless moved; custom consumers see every byte as it passes.
@Suite struct SpoolingTests {
    let b = Bodies.boundary

    func body(_ parts: [(String, [UInt8])], close: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in parts {
            bytes += Array("--\(b)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name).bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            bytes += value + [0x0D, 0x0A]
        }
        return bytes + (close ? Array("--\(b)--\r\n".utf8) : [])
    }

    func files(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func parser(_ directory: TemporaryDirectory, threshold: Int = 16, limits: MultipartLimits = MultipartLimits()) throws -> MultipartParser<SpoolingConsumer> {
        MultipartParser(boundary: try MultipartBoundary(b), limits: limits, spoolDirectory: directory.path, memoryThreshold: threshold)
    }

    @Test func partsUpToTheThresholdStayInMemoryAndLargerOnesGoToA0600File() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        let small = patternBytes(16, seed: 1)
        let large = patternBytes(17, seed: 2)
        var parser = try parser(directory)
        let parts = try parser.parse(body([("small", small), ("large", large)]))
        guard case .bytes(let bytes) = parts[0].value else {
            Issue.record("a 16-byte part with a 16-byte threshold was spooled")
            return
        }
        #expect(bytes == small)
        guard case .file(let file) = parts[1].value else {
            Issue.record("a 17-byte part with a 16-byte threshold stayed in memory")
            return
        }
        #expect(file.path.hasPrefix(directory.path + "/multipart-") && file.path.hasSuffix(".part"))
        #expect(file.size == 17)
        #expect(try file.readAll() == large)
        #expect(try parts[1].value.readAll() == large)
        #expect(parts[1].value.count == 17)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(MultipartValue.bytes(Array("héllo".utf8)).text == "héllo")
        #expect(MultipartValue.bytes([0x68, 0xFF]).text == nil)
        #expect(parts[1].value.text == nil)
    }

    @Test func aSpoolFileIsRemovedWhenItsValueIsDroppedUnlessMovedAway() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        let destination = try TemporaryDirectory("multipart-kept")
        do {
            var parser = try parser(directory)
            let parts = try parser.parse(body([("one", patternBytes(100)), ("two", patternBytes(200))]))
            #expect(try files(in: directory).count == 2)
            guard case .file(let kept) = parts[1].value else { throw MultipartError.alreadyFinished }
            try kept.move(to: destination.child("two.bin"))
            #expect(kept.isMoved)
            #expect(throws: MultipartError.self) { try kept.move(to: destination.child("again.bin")) }
        }
        #expect(try files(in: directory).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.child("two.bin"))) == Data(patternBytes(200)))
    }

    @Test func aFailedParseRemovesTheFilesOfEarlierParts() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        var parser = try parser(directory, limits: MultipartLimits(bytesPerField: ["third": 50]))
        try parser.feed(body([("first", patternBytes(1000)), ("second", patternBytes(2000))], close: false))
        #expect(try files(in: directory).count == 2)
        // The third part spills to a file and then breaks its limit.
        #expect(throws: MultipartError.partTooLarge(part: .init(number: 3, name: "third"), limit: 50)) {
            try parser.feed(body([("third", patternBytes(60))]))
        }
        #expect(try files(in: directory).isEmpty)
        #expect(throws: MultipartError.partTooLarge(part: .init(number: 3, name: "third"), limit: 50)) { _ = try parser.finish() }
    }

    @Test func aTruncatedBodyRemovesEveryFileAtFinish() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        var parser = try parser(directory)
        try parser.feed(body([("first", patternBytes(1000)), ("second", patternBytes(2000))], close: false) + Array("--\(b)\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n".utf8) + patternBytes(500))
        #expect(try files(in: directory).count == 3)
        #expect(throws: MultipartError.truncated(boundary: b, part: .init(number: 3, name: "x"))) { _ = try parser.finish() }
        #expect(try files(in: directory).isEmpty)
    }

    @Test func anAbandonedParserLeavesNoFiles() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        do {
            var parser = try parser(directory)
            try parser.feed(body([("first", patternBytes(1000))], close: false) + Array("--\(b)\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n".utf8) + patternBytes(500))
            #expect(try files(in: directory).count == 2)
        }
        #expect(try files(in: directory).isEmpty)
    }

    @Test func aSpoolDirectoryThatCannotBeWrittenIsAStorageErrorNamingThePart() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        var parser = MultipartParser(boundary: try MultipartBoundary(b), spoolDirectory: directory.child("missing"), memoryThreshold: 4)
        do {
            _ = try parser.parse(body([("ipa", patternBytes(10))]))
            Issue.record("spooling into a missing directory worked")
        } catch {
            guard case let .storageFailed(part, reason) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(part == .init(number: 1, name: "ipa"))
            #expect(reason.hasPrefix("cannot create a spool file in \(directory.child("missing")): No such file or directory"))
            #expect(error.category == .storage)
        }
    }

    /// Hashes a part while the built-in consumer stores it.
    struct HashingConsumer: MultipartPartConsumer {
        var spool: SpoolingConsumer
        var hash = SHA256()
        var chunks = 0
        mutating func consume(_ bytes: UnsafeRawBufferPointer) throws {
            hash.update(bytes)
            chunks += 1
            try spool.consume(bytes)
        }
        mutating func finish() throws -> (value: MultipartValue, digest: HashDigest, chunks: Int) {
            (try spool.finish(), hash.finalize(), chunks)
        }
        mutating func discard() { spool.discard() }
    }

    @Test func aCustomConsumerCanHashAnUploadWhileItIsWritten() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        let ipa = patternBytes(3_000_000, seed: 21)
        var parser = MultipartParser(boundary: try MultipartBoundary(b), limits: MultipartLimits(bytesPerField: ["ipa": 1 << 30])) { head in
            HashingConsumer(spool: SpoolingConsumer(directory: directory.path, memoryThreshold: head.filename == nil ? 1 << 20 : 0))
        }
        let bytes = body([("ipa", ipa)]) + []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65_536)
            try parser.feed(Array(bytes[offset..<end]))
            offset = end
        }
        let parts = try parser.finish()
        let result = try #require(parts.first?.value)
        var expected = SHA256()
        ipa.withUnsafeBytes { expected.update($0) }
        #expect(result.digest == expected.finalize())
        #expect(result.chunks > 40)
        guard case .file(let file) = result.value else {
            Issue.record("the ipa was kept in memory")
            return
        }
        #expect(try file.readAll() == ipa)
    }

    @Test func aWholeSpooledRequestBodyParsesFromItsFile() throws {
        let directory = try TemporaryDirectory("multipart-spool")
        let builder = Bodies.small()
        let path = try directory.write("request.body", builder.bytes)
        for chunkSize in [1, 7, 64, 1 << 20] {
            var parser = MultipartParser(boundary: try MultipartBoundary(b)) { _ in CollectingConsumer() }
            let parts = try parser.parseFile(atPath: path, chunkSize: chunkSize)
            #expect(parts.map { ParsedPart(head: $0.head, body: $0.value) } == builder.parts)
        }
        var missing = MultipartParser(boundary: try MultipartBoundary(b)) { _ in CollectingConsumer() }
        #expect(throws: MultipartError.readFailed(path: directory.child("nope"), reason: "No such file or directory")) {
            _ = try missing.parseFile(atPath: directory.child("nope"))
        }
    }
}
